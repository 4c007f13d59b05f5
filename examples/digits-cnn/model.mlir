// A small CNN for the 8x8 digits, written forward-only. rlx-grad builds
// @loss_grad from @loss (marked rlx.grad: differentiate argument 0, the flat
// parameter vector); @train_step calls it and applies SGD with momentum.
//
// Parameters, one flat f32 vector of 1922 (offsets in brackets):
//   w1 [0]    8x1x3x3   conv 1          g1 [72] 8, b1 [80] 8     group norm 1
//   w2 [88]   16x8x3x3  conv 2          g2 [1240] 16, b2 [1256] 16
//   w3 [1272] 64x10     classifier      b3 [1912] 10
//
// x [B,1,8,8] -> conv 3x3 pad 1 -> group_norm(2) -> relu -> max_pool 2
//             -> conv 3x3 pad 1 -> group_norm(4) -> gelu -> max_pool 2
//             -> flatten [B,64] -> matmul + bias [B,10] -> cross-entropy

func.func @loss(%p: tensor<1922xf32>, %x: tensor<32x1x8x8xf32>, %t: tensor<32xi64>)
    -> tensor<f32> attributes {rlx.grad = array<i64: 0>} {
  %w1f = tensor.extract_slice %p[0] [72] [1] : tensor<1922xf32> to tensor<72xf32>
  %w1 = tensor.expand_shape %w1f [[0, 1, 2, 3]] output_shape [8, 1, 3, 3] : tensor<72xf32> into tensor<8x1x3x3xf32>
  %g1 = tensor.extract_slice %p[72] [8] [1] : tensor<1922xf32> to tensor<8xf32>
  %b1 = tensor.extract_slice %p[80] [8] [1] : tensor<1922xf32> to tensor<8xf32>
  %w2f = tensor.extract_slice %p[88] [1152] [1] : tensor<1922xf32> to tensor<1152xf32>
  %w2 = tensor.expand_shape %w2f [[0, 1, 2, 3]] output_shape [16, 8, 3, 3] : tensor<1152xf32> into tensor<16x8x3x3xf32>
  %g2 = tensor.extract_slice %p[1240] [16] [1] : tensor<1922xf32> to tensor<16xf32>
  %b2 = tensor.extract_slice %p[1256] [16] [1] : tensor<1922xf32> to tensor<16xf32>
  %w3f = tensor.extract_slice %p[1272] [640] [1] : tensor<1922xf32> to tensor<640xf32>
  %w3 = tensor.expand_shape %w3f [[0, 1]] output_shape [64, 10] : tensor<640xf32> into tensor<64x10xf32>
  %b3 = tensor.extract_slice %p[1912] [10] [1] : tensor<1922xf32> to tensor<10xf32>

  %c1 = rlx.conv2d %x, %w1 {padding = array<i64: 1, 1>} : tensor<32x1x8x8xf32>, tensor<8x1x3x3xf32> -> tensor<32x8x8x8xf32>
  %n1 = rlx.group_norm %c1, %g1, %b1 {num_groups = 2 : i64, eps = 1.0e-05 : f32} : tensor<32x8x8x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<32x8x8x8xf32>
  %a1 = rlx.relu %n1 : tensor<32x8x8x8xf32> -> tensor<32x8x8x8xf32>
  %q1 = rlx.max_pool2d %a1 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<32x8x8x8xf32> -> tensor<32x8x4x4xf32>
  %c2 = rlx.conv2d %q1, %w2 {padding = array<i64: 1, 1>} : tensor<32x8x4x4xf32>, tensor<16x8x3x3xf32> -> tensor<32x16x4x4xf32>
  %n2 = rlx.group_norm %c2, %g2, %b2 {num_groups = 4 : i64, eps = 1.0e-05 : f32} : tensor<32x16x4x4xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<32x16x4x4xf32>
  %a2 = rlx.activation %n2 {kind = #rlx.activation<gelu>} : tensor<32x16x4x4xf32> -> tensor<32x16x4x4xf32>
  %q2 = rlx.max_pool2d %a2 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<32x16x4x4xf32> -> tensor<32x16x2x2xf32>
  %f = tensor.collapse_shape %q2 [[0], [1, 2, 3]] : tensor<32x16x2x2xf32> into tensor<32x64xf32>

  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x10xf32>) -> tensor<32x10xf32>
  %mm = linalg.matmul ins(%f, %w3 : tensor<32x64xf32>, tensor<64x10xf32>) outs(%z : tensor<32x10xf32>) -> tensor<32x10xf32>
  %logits = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (c)>, affine_map<(n, c) -> (n, c)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b3 : tensor<32x10xf32>, tensor<10xf32>) outs(%e : tensor<32x10xf32>) {
    ^bb0(%v: f32, %b: f32, %o: f32):
      %s = arith.addf %v, %b : f32
      linalg.yield %s : f32
  } -> tensor<32x10xf32>

  %ce = rlx.softmax_cross_entropy %logits, %t : tensor<32x10xf32>, tensor<32xi64> -> tensor<32xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%ce : tensor<32xf32>) outs(%z0 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %inv = arith.constant dense<0.03125> : tensor<f32>
  %mean = arith.mulf %sum, %inv : tensor<f32>
  return %mean : tensor<f32>
}

// Defined by rlx-grad: (loss, d loss / d p).
func.func private @loss_grad(tensor<1922xf32>, tensor<32x1x8x8xf32>, tensor<32xi64>)
    -> (tensor<f32>, tensor<1922xf32>)

// One SGD step with momentum 0.9: m' = 0.9 m + g, p' = p - lr m'.
func.func @train_step(%p: tensor<1922xf32>, %m: tensor<1922xf32>, %x: tensor<32x1x8x8xf32>,
                      %t: tensor<32xi64>, %lr: tensor<f32>)
    -> (tensor<f32>, tensor<1922xf32>, tensor<1922xf32>) {
  %l, %g = func.call @loss_grad(%p, %x, %t) : (tensor<1922xf32>, tensor<32x1x8x8xf32>, tensor<32xi64>) -> (tensor<f32>, tensor<1922xf32>)
  %e = tensor.empty() : tensor<1922xf32>
  %np, %nm = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                             iterator_types = ["parallel"]}
      ins(%p, %g, %m, %lr : tensor<1922xf32>, tensor<1922xf32>, tensor<1922xf32>, tensor<f32>) outs(%e, %e : tensor<1922xf32>, tensor<1922xf32>) {
    ^bb0(%pv: f32, %gv: f32, %mv: f32, %lrv: f32, %o0: f32, %o1: f32):
      %mu = arith.constant 0.9 : f32
      %mm1 = arith.mulf %mu, %mv : f32
      %m1 = arith.addf %mm1, %gv : f32
      %step = arith.mulf %lrv, %m1 : f32
      %p1 = arith.subf %pv, %step : f32
      linalg.yield %p1, %m1 : f32, f32
  } -> (tensor<1922xf32>, tensor<1922xf32>)
  return %l, %np, %nm : tensor<f32>, tensor<1922xf32>, tensor<1922xf32>
}

// Logits for evaluation, any batch size (the forward of @loss up to the
// classifier).
func.func @logits(%p: tensor<1922xf32>, %x: tensor<?x1x8x8xf32>) -> tensor<?x10xf32> {
  %w1f = tensor.extract_slice %p[0] [72] [1] : tensor<1922xf32> to tensor<72xf32>
  %w1 = tensor.expand_shape %w1f [[0, 1, 2, 3]] output_shape [8, 1, 3, 3] : tensor<72xf32> into tensor<8x1x3x3xf32>
  %g1 = tensor.extract_slice %p[72] [8] [1] : tensor<1922xf32> to tensor<8xf32>
  %b1 = tensor.extract_slice %p[80] [8] [1] : tensor<1922xf32> to tensor<8xf32>
  %w2f = tensor.extract_slice %p[88] [1152] [1] : tensor<1922xf32> to tensor<1152xf32>
  %w2 = tensor.expand_shape %w2f [[0, 1, 2, 3]] output_shape [16, 8, 3, 3] : tensor<1152xf32> into tensor<16x8x3x3xf32>
  %g2 = tensor.extract_slice %p[1240] [16] [1] : tensor<1922xf32> to tensor<16xf32>
  %b2 = tensor.extract_slice %p[1256] [16] [1] : tensor<1922xf32> to tensor<16xf32>
  %w3f = tensor.extract_slice %p[1272] [640] [1] : tensor<1922xf32> to tensor<640xf32>
  %w3 = tensor.expand_shape %w3f [[0, 1]] output_shape [64, 10] : tensor<640xf32> into tensor<64x10xf32>
  %b3 = tensor.extract_slice %p[1912] [10] [1] : tensor<1922xf32> to tensor<10xf32>

  %c1 = rlx.conv2d %x, %w1 {padding = array<i64: 1, 1>} : tensor<?x1x8x8xf32>, tensor<8x1x3x3xf32> -> tensor<?x8x8x8xf32>
  %n1 = rlx.group_norm %c1, %g1, %b1 {num_groups = 2 : i64, eps = 1.0e-05 : f32} : tensor<?x8x8x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<?x8x8x8xf32>
  %a1 = rlx.relu %n1 : tensor<?x8x8x8xf32> -> tensor<?x8x8x8xf32>
  %q1 = rlx.max_pool2d %a1 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x8x8xf32> -> tensor<?x8x4x4xf32>
  %c2 = rlx.conv2d %q1, %w2 {padding = array<i64: 1, 1>} : tensor<?x8x4x4xf32>, tensor<16x8x3x3xf32> -> tensor<?x16x4x4xf32>
  %n2 = rlx.group_norm %c2, %g2, %b2 {num_groups = 4 : i64, eps = 1.0e-05 : f32} : tensor<?x16x4x4xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<?x16x4x4xf32>
  %a2 = rlx.activation %n2 {kind = #rlx.activation<gelu>} : tensor<?x16x4x4xf32> -> tensor<?x16x4x4xf32>
  %q2 = rlx.max_pool2d %a2 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x16x4x4xf32> -> tensor<?x16x2x2xf32>
  %f = tensor.collapse_shape %q2 [[0], [1, 2, 3]] : tensor<?x16x2x2xf32> into tensor<?x64xf32>

  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1x8x8xf32>
  %e = tensor.empty(%n) : tensor<?x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x10xf32>) -> tensor<?x10xf32>
  %mm = linalg.matmul ins(%f, %w3 : tensor<?x64xf32>, tensor<64x10xf32>) outs(%z : tensor<?x10xf32>) -> tensor<?x10xf32>
  %logits = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (c)>, affine_map<(n, c) -> (n, c)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b3 : tensor<?x10xf32>, tensor<10xf32>) outs(%e : tensor<?x10xf32>) {
    ^bb0(%v: f32, %b: f32, %o: f32):
      %s = arith.addf %v, %b : f32
      linalg.yield %s : f32
  } -> tensor<?x10xf32>
  return %logits : tensor<?x10xf32>
}
