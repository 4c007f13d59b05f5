// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad wrt=0,3' --rlx-to-linalg | FileCheck %s

// Second order of rope: rope_backward's direct rule is rope.
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: linalg.generic
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%x: tensor<2x5x16xf64>, %c: tensor<5x4xf64>, %s: tensor<5x4xf64>) -> tensor<2x5x16xf64> attributes {rlx.grad = array<i64: 0>} {
  %y = rlx.rope %x, %c, %s {head_dim = 8 : i64, n_rot = 6 : i64} : tensor<2x5x16xf64>, tensor<5x4xf64>, tensor<5x4xf64> -> tensor<2x5x16xf64>
  %q = arith.mulf %y, %y : tensor<2x5x16xf64>
  return %q : tensor<2x5x16xf64>
}
