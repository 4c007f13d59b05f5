// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of cumsum over a dynamic axis: cumsum_backward's direct rule is rlx.cumsum, whose lowering is a loop, but no loop is differentiated.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: scf.for
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%x: tensor<3x?xf64>) -> tensor<3x?xf64> attributes {rlx.grad} {
  %y = rlx.cumsum %x {axis = 1 : i64} : tensor<3x?xf64> -> tensor<3x?xf64>
  %s = arith.mulf %y, %y : tensor<3x?xf64>
  return %s : tensor<3x?xf64>
}
