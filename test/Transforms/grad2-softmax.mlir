// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of softmax + cross-entropy (a gradient penalty on logits):
// softmax_backward and softmax_cross_entropy_backward are differentiated
// through their decompositions; nothing of rlx is left.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: math.exp
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%x: tensor<4x6xf64>, %t: tensor<4xi64>) -> tensor<4xf64> attributes {rlx.grad = array<i64: 0>} {
  %s = rlx.softmax %x {axis = -1 : i64} : tensor<4x6xf64> -> tensor<4x6xf64>
  %l = rlx.softmax_cross_entropy %s, %t : tensor<4x6xf64>, tensor<4xi64> -> tensor<4xf64>
  return %l : tensor<4xf64>
}
