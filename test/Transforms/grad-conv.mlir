// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// dx = conv2d_backward_input(dy, w), dw = conv2d_backward_weight(x, dy),
// with the forward's geometry.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>, %[[DY:.+]]: tensor<?x4x4x4xf32>)
// CHECK: rlx.conv2d_backward_input %[[DY]], %[[W]] {padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x4x4x4xf32>, tensor<4x3x3x3xf32> -> tensor<?x3x8x8xf32>
// CHECK: rlx.conv2d_backward_weight %[[X]], %[[DY]] {padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x3x8x8xf32>, tensor<?x4x4x4xf32> -> tensor<4x3x3x3xf32>
func.func @f(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x4x4xf32> attributes {rlx.grad} {
  %y = rlx.conv2d %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<?x4x4x4xf32>
  return %y : tensor<?x4x4x4xf32>
}
