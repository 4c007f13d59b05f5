// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of conv2d: the direct rules of conv2d_backward_input/weight emit convolutions again, which lower to linalg.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: linalg.generic
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%x: tensor<2x3x7x7xf64>, %w: tensor<4x3x3x3xf64>) -> tensor<2x4x4x4xf64> attributes {rlx.grad} {
  %y = rlx.conv2d %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x7x7xf64>, tensor<4x3x3x3xf64> -> tensor<2x4x4x4xf64>
  return %y : tensor<2x4x4x4xf64>
}
