// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// Only x: the tables are not in wrt.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<2x5x16xf32>, %[[C:.+]]: tensor<5x4xf32>, %[[S:.+]]: tensor<5x4xf32>, %[[DY:.+]]: tensor<2x5x16xf32>)
// CHECK: rlx.rope_backward %[[DY]], %[[C]], %[[S]] {head_dim = 8 : i64, n_rot = 8 : i64}
func.func @f(%x: tensor<2x5x16xf32>, %c: tensor<5x4xf32>, %s: tensor<5x4xf32>) -> tensor<2x5x16xf32> attributes {rlx.grad = array<i64: 0>} {
  %y = rlx.rope %x, %c, %s {head_dim = 8 : i64, n_rot = 8 : i64} : tensor<2x5x16xf32>, tensor<5x4xf32>, tensor<5x4xf32> -> tensor<2x5x16xf32>
  return %y : tensor<2x5x16xf32>
}
