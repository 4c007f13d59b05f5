// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s
// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-grad='function=f_grad_grad' --rlx-to-linalg | FileCheck %s --check-prefix=THIRD

// Second order of a layer_norm and an rms_norm: rlx-grad of @f_grad
// differentiates the norm backward ops that @f_grad contains through their
// decompositions, and rlx-to-linalg leaves plain linalg/tensor/arith.
// CHECK-LABEL: func.func @f_grad_grad
// CHECK-NOT: rlx.
// CHECK: linalg.generic
// CHECK-NOT: rlx.
// CHECK: return

// Third order: the same again.
// THIRD-LABEL: func.func @f_grad_grad_grad
// THIRD-NOT: rlx.
// THIRD: return
func.func @f(%x: tensor<2x8xf64>, %g: tensor<8xf64>, %b: tensor<8xf64>, %g2: tensor<8xf64>) -> tensor<2x8xf64> attributes {rlx.grad} {
  %y = rlx.layer_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x8xf64>, tensor<8xf64>, tensor<8xf64> -> tensor<2x8xf64>
  %z = rlx.rms_norm %y, %g2, %b {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x8xf64>, tensor<8xf64>, tensor<8xf64> -> tensor<2x8xf64>
  return %z : tensor<2x8xf64>
}
