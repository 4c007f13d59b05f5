// RUN: rlx-opt %s --split-input-file --rlx-grad | FileCheck %s

// softmax has no backward op: s = sum_axis(dy * y) (one reduction generic),
// dx = y * (dy - s) (one broadcasting generic), on the forward result y.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<3x7xf32>, %[[DY:.+]]: tensor<3x7xf32>)
// CHECK: %[[Y:.+]] = rlx.softmax %[[X]]
// CHECK: %[[S:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[DY]], %[[Y]] : {{.*}})
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[DX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[Y]], %[[DY]], %[[S]] : {{.*}})
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: return %[[Y]], %[[DX]]
func.func @f(%x: tensor<3x7xf32>) -> tensor<3x7xf32> attributes {rlx.grad} {
  %y = rlx.softmax %x {axis = -1 : i64} : tensor<3x7xf32> -> tensor<3x7xf32>
  return %y : tensor<3x7xf32>
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
