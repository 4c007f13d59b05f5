// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of fake_quantize (tanh STE): fake_quantize_backward through its decomposition.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: math.tanh
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%x: tensor<4x6xf64>) -> tensor<4x6xf64> attributes {rlx.grad} {
  %y = rlx.fake_quantize %x {bits = 4 : i64, ste = #rlx.ste<tanh>} : tensor<4x6xf64> -> tensor<4x6xf64>
  %s = arith.mulf %y, %x : tensor<4x6xf64>
  return %s : tensor<4x6xf64>
}
