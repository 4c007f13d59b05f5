// RUN: rlx-opt %s --split-input-file --rlx-grad | FileCheck %s

// layer_norm: one backward op per needed operand; x is data (not in wrt),
// so no *_backward_input.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<?x16xf32>, %[[G:.+]]: tensor<16xf32>, %[[B:.+]]: tensor<16xf32>, %[[DY:.+]]: tensor<?x16xf32>)
// CHECK-NOT: layer_norm_backward_input
// CHECK-DAG: rlx.layer_norm_backward_gamma %[[X]], %[[DY]] {eps = 1.000000e-03 : f32}
// CHECK-DAG: rlx.layer_norm_backward_beta %[[DY]] :
func.func @f(%x: tensor<?x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> attributes {rlx.grad = array<i64: 1, 2>} {
  %y = rlx.layer_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-3 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// rms_norm and group_norm: input, gamma and beta gradients.
// CHECK-LABEL: func.func @r_grad
// CHECK: rlx.rms_norm_backward_input
// CHECK: rlx.rms_norm_backward_gamma
// CHECK: rlx.rms_norm_backward_beta
func.func @r(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> attributes {rlx.grad} {
  %y = rlx.rms_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
// CHECK-LABEL: func.func @gn_grad
// CHECK: rlx.group_norm_backward_input {{.*}} {eps = 1.000000e-03 : f32, num_groups = 2 : i64}
// CHECK: rlx.group_norm_backward_gamma
// CHECK: rlx.group_norm_backward_beta
func.func @gn(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x3xf32> attributes {rlx.grad} {
  %y = rlx.group_norm %x, %g, %b {num_groups = 2 : i64, eps = 1.0e-3 : f32} : tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}
