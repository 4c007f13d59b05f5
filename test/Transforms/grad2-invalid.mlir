// RUN: rlx-opt %s --split-input-file --verify-diagnostics --rlx-grad

// A backward op whose decomposition does not apply: the error names the op
// and gives the pattern's reason.
func.func @f16(%x: tensor<4xf16>, %dy: tensor<4xf16>) -> tensor<4xf16> attributes {rlx.grad} {
  // expected-error @+1 {{'rlx.softmax_backward' is not differentiable: it has no rule and could not be decomposed}}
  %dx = rlx.softmax_backward %x, %dy : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %dx : tensor<4xf16>
}

// -----

// rope_backward is differentiated in dy only, like rope in x.
func.func @rope_tables(%dy: tensor<2x8xf32>, %c: tensor<2x2xf32>, %s: tensor<2x2xf32>) -> tensor<2x8xf32> attributes {rlx.grad = array<i64: 0, 1>} {
  // expected-error @+1 {{'rlx.rope_backward' is not differentiable with respect to its cos/sin tables}}
  %dx = rlx.rope_backward %dy, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x8xf32>, tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x8xf32>
  return %dx : tensor<2x8xf32>
}
