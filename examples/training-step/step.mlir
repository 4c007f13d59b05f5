// One training step of a two-layer classifier, forward and backward:
//   h = x W1, a = gelu(h), logits = a W2, loss = cross_entropy(logits, labels)
// and the gradients dW1, dW2 via rlx backward ops. Run it with:
//   rlx-run step.mlir --entry=step --input=input0_x.npy ... (scripts/demo.sh)

func.func private @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func private @transpose(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %t = linalg.transpose ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) permutation = [1, 0]
  return %t : tensor<?x?xf32>
}

// Returns (per-example loss [N], dW1 [D,H], dW2 [H,C]).
func.func @step(%x: tensor<?x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x4xf32>,
                %labels: tensor<?xi64>) -> (tensor<?xf32>, tensor<8x16xf32>, tensor<16x4xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %xd = tensor.cast %x : tensor<?x8xf32> to tensor<?x?xf32>
  %w1d = tensor.cast %w1 : tensor<8x16xf32> to tensor<?x?xf32>
  %w2d = tensor.cast %w2 : tensor<16x4xf32> to tensor<?x?xf32>

  // Forward.
  %h = func.call @matmul(%xd, %w1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %a = rlx.activation %h {kind = #rlx.activation<gelu>} : tensor<?x?xf32> -> tensor<?x?xf32>
  %logits_d = func.call @matmul(%a, %w2d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %logits = tensor.cast %logits_d : tensor<?x?xf32> to tensor<?x4xf32>
  %loss = rlx.softmax_cross_entropy %logits, %labels : tensor<?x4xf32>, tensor<?xi64> -> tensor<?xf32>

  // Backward: d(mean loss)/d logits, then through W2, gelu and W1.
  %one = arith.constant 1.0 : f32
  %nf_i = arith.index_cast %n : index to i64
  %nf = arith.sitofp %nf_i : i64 to f32
  %inv_n = arith.divf %one, %nf : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %dloss = linalg.fill ins(%inv_n : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %dlogits = rlx.softmax_cross_entropy_backward %logits, %labels, %dloss : tensor<?x4xf32>, tensor<?xi64>, tensor<?xf32> -> tensor<?x4xf32>
  %dlogits_d = tensor.cast %dlogits : tensor<?x4xf32> to tensor<?x?xf32>
  %a_t = func.call @transpose(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %dw2 = func.call @matmul(%a_t, %dlogits_d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %w2_t = func.call @transpose(%w2d) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %da = func.call @matmul(%dlogits_d, %w2_t) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %dh = rlx.activation_backward %h, %da {kind = #rlx.activation<gelu>} : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %x_t = func.call @transpose(%xd) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %dw1 = func.call @matmul(%x_t, %dh) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>

  %dw1_s = tensor.cast %dw1 : tensor<?x?xf32> to tensor<8x16xf32>
  %dw2_s = tensor.cast %dw2 : tensor<?x?xf32> to tensor<16x4xf32>
  return %loss, %dw1_s, %dw2_s : tensor<?xf32>, tensor<8x16xf32>, tensor<16x4xf32>
}
