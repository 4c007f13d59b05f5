// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<4x6xf32>, %[[DY:.+]]: tensor<4x6xf32>)
// CHECK: rlx.fake_quantize_backward %[[X]], %[[DY]] {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<tanh>}
func.func @f(%x: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {rlx.grad} {
  %y = rlx.fake_quantize %x {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<tanh>} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
