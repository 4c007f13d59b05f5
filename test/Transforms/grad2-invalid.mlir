// RUN: rlx-opt %s --split-input-file --verify-diagnostics --rlx-grad

// A backward op whose decomposition does not apply: the error names the op
// and gives the pattern's reason.
func.func @f8E5M2(%x: tensor<4xf8E5M2>, %dy: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> attributes {rlx.grad} {
  // expected-error @+1 {{'rlx.softmax_backward' is not differentiable: it has no rule and could not be decomposed}}
  %dx = rlx.softmax_backward %x, %dy : tensor<4xf8E5M2>, tensor<4xf8E5M2> -> tensor<4xf8E5M2>
  return %dx : tensor<4xf8E5M2>
}

