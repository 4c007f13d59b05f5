// RUN: rlx-opt %s --split-input-file --rlx-grad | FileCheck %s

// softmax and log_softmax: their backward ops on the forward input x.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<3x7xf32>, %[[DY:.+]]: tensor<3x7xf32>)
// CHECK: %[[Y:.+]] = rlx.softmax %[[X]] {axis = 0 : i64}
// CHECK: %[[L:.+]] = rlx.log_softmax %[[Y]]
// CHECK: %[[DY2:.+]] = rlx.log_softmax_backward %[[Y]], %[[DY]] :
// CHECK: %[[DX:.+]] = rlx.softmax_backward %[[X]], %[[DY2]] {axis = 0 : i64}
// CHECK: return %[[L]], %[[DX]]
func.func @f(%x: tensor<3x7xf32>) -> tensor<3x7xf32> attributes {rlx.grad} {
  %y = rlx.softmax %x {axis = 0 : i64} : tensor<3x7xf32> -> tensor<3x7xf32>
  %l = rlx.log_softmax %y : tensor<3x7xf32> -> tensor<3x7xf32>
  return %l : tensor<3x7xf32>
}

// -----

// cross-entropy per sample: its backward op with the cotangent of the loss.
// CHECK-LABEL: func.func @ce_grad
// CHECK-SAME: (%[[L:.+]]: tensor<?x10xf32>, %[[T:.+]]: tensor<?xi32>, %[[D:.+]]: tensor<?xf32>)
// CHECK: rlx.softmax_cross_entropy_backward %[[L]], %[[T]], %[[D]]
func.func @ce(%l: tensor<?x10xf32>, %t: tensor<?xi32>) -> tensor<?xf32> attributes {rlx.grad} {
  %y = rlx.softmax_cross_entropy %l, %t : tensor<?x10xf32>, tensor<?xi32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}
