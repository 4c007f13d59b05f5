// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<?x8xf32>, %[[DY:.+]]: tensor<?x8xf32>)
// CHECK: rlx.cumsum_backward %[[DY]] {axis = 1 : i64, exclusive}
func.func @f(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {rlx.grad} {
  %y = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<?x8xf32> -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
