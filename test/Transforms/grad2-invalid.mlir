// RUN: rlx-opt %s --split-input-file --verify-diagnostics --rlx-grad

// A backward op whose decomposition does not apply: the error names the op
// and gives the pattern's reason.
func.func @f16(%x: tensor<4xf16>, %dy: tensor<4xf16>) -> tensor<4xf16> attributes {rlx.grad} {
  // expected-error @+1 {{'rlx.softmax_backward' is not differentiable: it has no rule and could not be decomposed}}
  %dx = rlx.softmax_backward %x, %dy : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %dx : tensor<4xf16>
}

