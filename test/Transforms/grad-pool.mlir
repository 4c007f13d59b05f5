// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8x8xf32>, %[[DY:.+]]: tensor<2x3x4x4xf32>)
// CHECK: rlx.max_pool2d_backward %[[X]], %[[DY]] {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>}
func.func @f(%x: tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32> attributes {rlx.grad} {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  return %y : tensor<2x3x4x4xf32>
}
