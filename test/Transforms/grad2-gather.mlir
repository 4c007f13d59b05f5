// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of gather (an embedding): gather_backward's direct rule is a gather.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: tensor.extract
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%t: tensor<10x4xf64>, %i: tensor<2x3xi64>) -> tensor<2x3x4xf64> attributes {rlx.grad = array<i64: 0>} {
  %y = rlx.gather %t, %i {axis = 0 : i64} : tensor<10x4xf64>, tensor<2x3xi64> -> tensor<2x3x4xf64>
  %s = arith.mulf %y, %y : tensor<2x3x4xf64>
  return %s : tensor<2x3x4xf64>
}
