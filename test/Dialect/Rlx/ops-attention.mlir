// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// Sequence-major [B, S, H*D], dynamic batch, Sq != Sk, causal.
// CHECK-LABEL: func.func @causal_seq_major
// CHECK: rlx.attention %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, num_heads = 2 : i64} : tensor<?x3x8xf32>, tensor<?x5x8xf32>, tensor<?x5x8xf32> -> tensor<?x3x8xf32>
// CHECK: rlx.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, num_heads = 2 : i64, wrt = #rlx.attention_wrt<key>} : tensor<?x3x8xf32>, tensor<?x5x8xf32>, tensor<?x5x8xf32>, tensor<?x3x8xf32> -> tensor<?x5x8xf32>
func.func @causal_seq_major(%q: tensor<?x3x8xf32>, %k: tensor<?x5x8xf32>, %v: tensor<?x5x8xf32>, %dy: tensor<?x3x8xf32>) -> (tensor<?x3x8xf32>, tensor<?x5x8xf32>) {
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<?x3x8xf32>, tensor<?x5x8xf32>, tensor<?x5x8xf32> -> tensor<?x3x8xf32>
  %dk = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<key>} : tensor<?x3x8xf32>, tensor<?x5x8xf32>, tensor<?x5x8xf32>, tensor<?x3x8xf32> -> tensor<?x5x8xf32>
  return %o, %dk : tensor<?x3x8xf32>, tensor<?x5x8xf32>
}

// -----

// Head-major [B, H, S, D], bias mask, scale and softcap; mask_kind defaults to none.
// CHECK-LABEL: func.func @bias_head_major
// CHECK: rlx.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, num_heads = 2 : i64, scale = 2.500000e-01 : f32, softcap = 3.000000e+01 : f32} : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64>, tensor<1x2x3x1xf64> -> tensor<2x2x3x4xf64>
// CHECK: rlx.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, num_heads = 2 : i64, wrt = #rlx.attention_wrt<query>} : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x3x4xf64>, tensor<3x5xf64> -> tensor<2x2x3x4xf64>
// CHECK: rlx.attention %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, num_heads = 2 : i64} : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64> -> tensor<2x2x3x4xf64>
func.func @bias_head_major(%q: tensor<2x2x3x4xf64>, %k: tensor<2x2x5x4xf64>, %v: tensor<2x2x5x4xf64>, %b: tensor<1x2x3x1xf64>, %b2: tensor<3x5xf64>, %dy: tensor<2x2x3x4xf64>) -> (tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64>) {
  %o = rlx.attention %q, %k, %v, %b {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, scale = 0.25 : f32, softcap = 30.0 : f32} : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64>, tensor<1x2x3x1xf64> -> tensor<2x2x3x4xf64>
  %dq = rlx.attention_backward %q, %k, %v, %dy, %b2 {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<query>} : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x3x4xf64>, tensor<3x5xf64> -> tensor<2x2x3x4xf64>
  %n = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64> -> tensor<2x2x3x4xf64>
  return %o, %dq, %n : tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64>
}

// -----

// Sliding window and custom masks, fully dynamic shapes.
// CHECK-LABEL: func.func @window_custom
// CHECK: rlx.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 8 : i64, mask_kind = #rlx.mask_kind<sliding_window>, num_heads = 3 : i64, window = 2 : i64, wrt = #rlx.attention_wrt<value>} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
// CHECK: rlx.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 8 : i64, mask_kind = #rlx.mask_kind<custom>, num_heads = 3 : i64} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?x?xf32>
func.func @window_custom(%q: tensor<?x?x?x?xf32>, %m: tensor<?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %dv = rlx.attention_backward %q, %q, %q, %q {num_heads = 3 : i64, head_dim = 8 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = 2 : i64, wrt = #rlx.attention_wrt<value>} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %o = rlx.attention %q, %q, %q, %m {num_heads = 3 : i64, head_dim = 8 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?x?xf32>
  return %dv, %o : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}

// -----

// Generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 2 : i64, mask_kind = #rlx.mask_kind<custom>, num_heads = 2 : i64, scale = 5.000000e-01 : f32, softcap = 5.000000e+00 : f32, wrt = #rlx.attention_wrt<key>} : tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x4x4xf32>, tensor<2x2x4x6xf32> -> tensor<2x6x4xf32>
// CHECK: rlx.attention %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 2 : i64, mask_kind = #rlx.mask_kind<sliding_window>, num_heads = 2 : i64, window = 0 : i64} : tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32> -> tensor<2x4x4xf32>
func.func @generic(%q: tensor<2x4x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %dy: tensor<2x4x4xf32>, %m: tensor<2x2x4x6xf32>) -> (tensor<2x6x4xf32>, tensor<2x4x4xf32>) {
  %dk = "rlx.attention_backward"(%q, %k, %v, %dy, %m) <{num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<custom>, scale = 0.5 : f32, softcap = 5.0 : f32, wrt = #rlx.attention_wrt<key>}> : (tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x4x4xf32>, tensor<2x2x4x6xf32>) -> tensor<2x6x4xf32>
  %o = "rlx.attention"(%q, %k, %v) <{num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = 0 : i64}> : (tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x4x4xf32>
  return %dk, %o : tensor<2x6x4xf32>, tensor<2x4x4xf32>
}

// -----

// Grouped-query heads (4 query heads, 2 key/value heads) with a value head
// dim of 6, both layouts.
// CHECK-LABEL: func.func @grouped_value_dim
// CHECK: rlx.attention %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, num_heads = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64} : tensor<?x3x16xf32>, tensor<?x5x8xf32>, tensor<?x5x12xf32> -> tensor<?x3x24xf32>
// CHECK: rlx.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, num_heads = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64, wrt = #rlx.attention_wrt<value>} : tensor<2x4x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x6xf64>, tensor<2x4x3x6xf64> -> tensor<2x2x5x6xf64>
func.func @grouped_value_dim(%q: tensor<?x3x16xf32>, %k: tensor<?x5x8xf32>, %v: tensor<?x5x12xf32>, %q4: tensor<2x4x3x4xf64>, %k4: tensor<2x2x5x4xf64>, %v4: tensor<2x2x5x6xf64>, %dy4: tensor<2x4x3x6xf64>) -> (tensor<?x3x24xf32>, tensor<2x2x5x6xf64>) {
  %o = rlx.attention %q, %k, %v {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<?x3x16xf32>, tensor<?x5x8xf32>, tensor<?x5x12xf32> -> tensor<?x3x24xf32>
  %dv = rlx.attention_backward %q4, %k4, %v4, %dy4 {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64, wrt = #rlx.attention_wrt<value>} : tensor<2x4x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x6xf64>, tensor<2x4x3x6xf64> -> tensor<2x2x5x6xf64>
  return %o, %dv : tensor<?x3x24xf32>, tensor<2x2x5x6xf64>
}
