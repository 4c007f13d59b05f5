// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of max_pool2d: max_pool2d_backward's direct rule (the cotangent read at each window's argmax; zero in x).
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: tensor.extract
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%x: tensor<2x3x6x6xf64>) -> tensor<2x3x3x3xf64> attributes {rlx.grad} {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x6x6xf64> -> tensor<2x3x3x3xf64>
  return %y : tensor<2x3x3x3xf64>
}
