// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// The indices are not differentiated (wrt defaults to the float arguments).
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[T:.+]]: tensor<10x4xf32>, %[[I:.+]]: tensor<?x3xi64>, %[[DY:.+]]: tensor<?x3x4xf32>) -> (tensor<?x3x4xf32>, tensor<10x4xf32>)
// CHECK: rlx.gather_backward %[[DY]], %[[I]] {axis = 0 : i64} : tensor<?x3x4xf32>, tensor<?x3xi64> -> tensor<10x4xf32>
func.func @f(%t: tensor<10x4xf32>, %i: tensor<?x3xi64>) -> tensor<?x3x4xf32> attributes {rlx.grad} {
  %y = rlx.gather %t, %i {axis = 0 : i64} : tensor<10x4xf32>, tensor<?x3xi64> -> tensor<?x3x4xf32>
  return %y : tensor<?x3x4xf32>
}
