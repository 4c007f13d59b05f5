// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of a tanh RNN (rlx.scan): scan_backward through its unrolled decomposition, whose cloned body_vjp ops are differentiated in turn.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: math.tanh
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%h0: tensor<2x4xf64>, %x: tensor<3x2x4xf64>) -> tensor<2x4xf64> attributes {rlx.grad} {
  %y = rlx.scan %h0 xs(%x : tensor<3x2x4xf64>) {length = 3 : i64} : tensor<2x4xf64> -> tensor<2x4xf64> {
  ^bb0(%h: tensor<2x4xf64>, %xt: tensor<2x4xf64>):
    %e = tensor.empty() : tensor<2x4xf64>
    %s = linalg.add ins(%h, %xt : tensor<2x4xf64>, tensor<2x4xf64>) outs(%e : tensor<2x4xf64>) -> tensor<2x4xf64>
    %n = rlx.activation %s {kind = #rlx.activation<tanh>} : tensor<2x4xf64> -> tensor<2x4xf64>
    rlx.yield %n : tensor<2x4xf64>
  }
  return %y : tensor<2x4xf64>
}
