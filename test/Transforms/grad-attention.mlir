// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// One attention_backward per needed input (here key and value).
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[Q:.+]]: tensor<2x3x8xf32>, %[[K:.+]]: tensor<2x5x8xf32>, %[[V:.+]]: tensor<2x5x8xf32>, %[[DY:.+]]: tensor<2x3x8xf32>)
// CHECK-NOT: attention_wrt<query>
// CHECK: rlx.attention_backward %[[Q]], %[[K]], %[[V]], %[[DY]] {head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, num_heads = 2 : i64, wrt = #rlx.attention_wrt<key>}
// CHECK: rlx.attention_backward %[[Q]], %[[K]], %[[V]], %[[DY]] {head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, num_heads = 2 : i64, wrt = #rlx.attention_wrt<value>}
func.func @f(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> attributes {rlx.grad = array<i64: 1, 2>} {
  %y = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// Grouped-query heads and a value head dim: the gradients carry every
// attribute, and dk/dv have the key/value shapes.
// CHECK-LABEL: func.func @g_grad
// CHECK: rlx.attention_backward {{.*}} {head_dim = 4 : i64, num_heads = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64, wrt = #rlx.attention_wrt<query>} : {{.*}} -> tensor<2x3x16xf32>
// CHECK: rlx.attention_backward {{.*}} {head_dim = 4 : i64, num_heads = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64, wrt = #rlx.attention_wrt<key>} : {{.*}} -> tensor<2x5x8xf32>
// CHECK: rlx.attention_backward {{.*}} {head_dim = 4 : i64, num_heads = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64, wrt = #rlx.attention_wrt<value>} : {{.*}} -> tensor<2x5x12xf32>
func.func @g(%q: tensor<2x3x16xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x12xf32>) -> tensor<2x3x24xf32> attributes {rlx.grad = array<i64: 0, 1, 2>} {
  %y = rlx.attention %q, %k, %v {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64} : tensor<2x3x16xf32>, tensor<2x5x8xf32>, tensor<2x5x12xf32> -> tensor<2x3x24xf32>
  return %y : tensor<2x3x24xf32>
}
