// IR size must not depend on tensor sizes: each pair of functions (B=2, H=2,
// Sq=3, Sk=5, D=4 and B=2, H=8, Sq=300, Sk=500, D=64: 100x longer sequences,
// 16x wider heads) decomposes to the same number of ops (counted in generic
// form, nested ops included). The awk script prints one count per function.
// (Explicit scales keep constant uniquing from merging 1/sqrt(4) = 0.5 with
// the custom mask threshold 0.5 in one function only.)
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='attention-per-head=false attention-blocks=false' --rlx-lower-to-linalg=forward-attention-blocks=false --mlir-print-op-generic \
// RUN:   | awk '/^\/\/ -----/ { print "ops", n; n = 0; next } /"[a-z_]+\.[a-z_.]+"/ { n++ } END { print "ops", n }' \
// RUN:   | FileCheck %s

// CHECK: ops [[DQ:[0-9]+]]
// CHECK-NEXT: ops [[DQ]]
// CHECK-NEXT: ops [[DK:[0-9]+]]
// CHECK-NEXT: ops [[DK]]
// CHECK-NEXT: ops [[DV:[0-9]+]]
// CHECK-NEXT: ops [[DV]]
// CHECK-NEXT: ops [[FWD:[0-9]+]]
// CHECK-NEXT: ops [[FWD]]
// CHECK-NEXT: ops [[GQA:[0-9]+]]
// CHECK-NEXT: ops [[GQA]]
// CHECK-NOT: ops

func.func @small_query(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %dy: tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, softcap = 30.0 : f32, wrt = #rlx.attention_wrt<query>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  return %g : tensor<2x2x3x4xf32>
}

// -----

func.func @large_query(%q: tensor<2x8x300x64xf32>, %k: tensor<2x8x500x64xf32>, %v: tensor<2x8x500x64xf32>, %dy: tensor<2x8x300x64xf32>) -> tensor<2x8x300x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<causal>, softcap = 30.0 : f32, wrt = #rlx.attention_wrt<query>} : tensor<2x8x300x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x300x64xf32> -> tensor<2x8x300x64xf32>
  return %g : tensor<2x8x300x64xf32>
}

// -----

func.func @small_key(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %dy: tensor<2x2x3x4xf32>, %m: tensor<2x5xf32>) -> tensor<2x2x5x4xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>, scale = 1.250000e-01 : f32, wrt = #rlx.attention_wrt<key>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x3x4xf32>, tensor<2x5xf32> -> tensor<2x2x5x4xf32>
  return %g : tensor<2x2x5x4xf32>
}

// -----

func.func @large_key(%q: tensor<2x8x300x64xf32>, %k: tensor<2x8x500x64xf32>, %v: tensor<2x8x500x64xf32>, %dy: tensor<2x8x300x64xf32>, %m: tensor<2x500xf32>) -> tensor<2x8x500x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy, %m {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<custom>, scale = 1.250000e-01 : f32, wrt = #rlx.attention_wrt<key>} : tensor<2x8x300x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x300x64xf32>, tensor<2x500xf32> -> tensor<2x8x500x64xf32>
  return %g : tensor<2x8x500x64xf32>
}

// -----

func.func @small_value(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %dy: tensor<2x2x3x4xf32>, %m: tensor<1x2x3x5xf32>) -> tensor<2x2x5x4xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<value>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x3x4xf32>, tensor<1x2x3x5xf32> -> tensor<2x2x5x4xf32>
  return %g : tensor<2x2x5x4xf32>
}

// -----

func.func @large_value(%q: tensor<2x8x300x64xf32>, %k: tensor<2x8x500x64xf32>, %v: tensor<2x8x500x64xf32>, %dy: tensor<2x8x300x64xf32>, %m: tensor<1x8x300x500xf32>) -> tensor<2x8x500x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy, %m {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<value>} : tensor<2x8x300x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x300x64xf32>, tensor<1x8x300x500xf32> -> tensor<2x8x500x64xf32>
  return %g : tensor<2x8x500x64xf32>
}

// -----

func.func @small_forward(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = 3 : i64, softcap = 30.0 : f32} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @large_forward(%q: tensor<2x300x512xf32>, %k: tensor<2x500x512xf32>, %v: tensor<2x500x512xf32>) -> tensor<2x300x512xf32> {
  %o = rlx.attention %q, %k, %v {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = 3 : i64, softcap = 30.0 : f32} : tensor<2x300x512xf32>, tensor<2x500x512xf32>, tensor<2x500x512xf32> -> tensor<2x300x512xf32>
  return %o : tensor<2x300x512xf32>
}

// -----

// Grouped-query heads and a value head dim (4 over 2 heads, Dv = 3; 16 over
// 4 heads, Dv = 48).
func.func @small_grouped(%q: tensor<2x3x16xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x6xf32>, %dy: tensor<2x3x12xf32>) -> tensor<2x5x8xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 3 : i64, mask_kind = #rlx.mask_kind<causal>, scale = 1.250000e-01 : f32, wrt = #rlx.attention_wrt<key>} : tensor<2x3x16xf32>, tensor<2x5x8xf32>, tensor<2x5x6xf32>, tensor<2x3x12xf32> -> tensor<2x5x8xf32>
  return %g : tensor<2x5x8xf32>
}

// -----

func.func @large_grouped(%q: tensor<2x300x1024xf32>, %k: tensor<2x500x256xf32>, %v: tensor<2x500x192xf32>, %dy: tensor<2x300x768xf32>) -> tensor<2x500x256xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 16 : i64, head_dim = 64 : i64, num_kv_heads = 4 : i64, value_head_dim = 48 : i64, mask_kind = #rlx.mask_kind<causal>, scale = 1.250000e-01 : f32, wrt = #rlx.attention_wrt<key>} : tensor<2x300x1024xf32>, tensor<2x500x256xf32>, tensor<2x500x192xf32>, tensor<2x300x768xf32> -> tensor<2x500x256xf32>
  return %g : tensor<2x500x256xf32>
}
