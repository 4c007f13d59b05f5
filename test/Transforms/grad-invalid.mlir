// RUN: rlx-opt %s --split-input-file --rlx-grad --verify-diagnostics

// expected-error @+1 {{wrt index 2 is out of range: 'f' has 2 arguments}}
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> attributes {rlx.grad = array<i64: 2>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{wrt index 1 names argument of type 'tensor<4xi64>', not a float ranked tensor or float}}
func.func @f(%x: tensor<4xf32>, %i: tensor<4xi64>) -> tensor<4xf32> attributes {rlx.grad = array<i64: 1>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{wrt index 0 is repeated}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rlx.grad = array<i64: 0, 0>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{cannot create 'f_grad': the symbol exists and is not a declaration of type}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {rlx.grad} {
  return %x : tensor<4xf32>
}
func.func @f_grad(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// An op without a rule.
func.func @f(%x: tensor<4xf32>, %s: tensor<2xindex>) -> tensor<2x2xf32> attributes {rlx.grad = array<i64: 0>} {
  // expected-error @+1 {{'tensor.reshape' is not differentiable (no GradOpInterface rule)}}
  %y = tensor.reshape %x(%s) : (tensor<4xf32>, tensor<2xindex>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// A linalg op whose maps are not projected permutations (a convolution).
func.func @f(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x3x3xf32>, %o: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> attributes {rlx.grad = array<i64: 0>} {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' is not differentiable: indexing map #0 is not a projected permutation}}
  %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) outs(%o : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}

// -----

// A product reduction.
func.func @f(%x: tensor<4x3xf32>, %o: tensor<4xf32>) -> tensor<4xf32> attributes {rlx.grad = array<i64: 0>} {
  // expected-error @+1 {{'linalg.generic' is not differentiable: output #0 is not a sum, max or min reduction}}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x3xf32>) outs(%o : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A body op without a scalar rule.
func.func @f(%x: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> attributes {rlx.grad = array<i64: 0>} {
  // expected-error @+1 {{'linalg.generic' is not differentiable: its body op 'math.cbrt' has no reverse rule}}
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = math.cbrt %a : f32
      linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A scalar op without a rule.
func.func @f(%x: f32) -> f32 attributes {rlx.grad} {
  // expected-error @+1 {{'math.cbrt' is not differentiable}}
  %y = math.cbrt %x : f32
  return %y : f32
}

// -----

// A varied value captured by a region (the padding value of tensor.pad).
func.func @f(%x: tensor<2xf32>, %v: f32) -> tensor<4xf32> attributes {rlx.grad = array<i64: 1>} {
  // expected-error @+1 {{'tensor.pad' is not differentiable with respect to a value its region captures}}
  %y = tensor.pad %x low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %v : f32
  } : tensor<2xf32> to tensor<4xf32>
  return %y : tensor<4xf32>
}
