// RUN: rlx-opt %s --split-input-file --rlx-grad | FileCheck %s

// relu and activation use their backward ops on the forward input x.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[DY:.+]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: %[[R:.+]] = rlx.relu %[[X]]
// CHECK: %[[G:.+]] = rlx.activation %[[R]] {kind = #rlx.activation<gelu>}
// CHECK: %[[DR:.+]] = rlx.activation_backward %[[R]], %[[DY]] {kind = #rlx.activation<gelu>}
// CHECK: %[[DX:.+]] = rlx.relu_backward %[[X]], %[[DR]]
// CHECK: return %[[G]], %[[DX]]
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {rlx.grad} {
  %r = rlx.relu %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %g = rlx.activation %r {kind = #rlx.activation<gelu>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
