// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s
// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-grad='function=f_grad_grad' --rlx-to-linalg | FileCheck %s --check-prefix=THIRD

// Second order of relu and gelu: @f_grad holds relu_backward and
// activation_backward, which rlx-grad differentiates through their
// decompositions (elementwise generics); the result is plain linalg/arith/math.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: math.erf
// CHECK-NOT: rlx.
// CHECK: return

// THIRD-LABEL: func.func @f_grad_grad_grad(
// THIRD-NOT: rlx.
// THIRD: return
func.func @f(%x: tensor<3x4xf64>) -> tensor<3x4xf64> attributes {rlx.grad} {
  %r = rlx.relu %x : tensor<3x4xf64> -> tensor<3x4xf64>
  %y = rlx.activation %r {kind = #rlx.activation<gelu>} : tensor<3x4xf64> -> tensor<3x4xf64>
  return %y : tensor<3x4xf64>
}
