// IR size must not depend on the sequence length on the attention-blocks
// path (the default; ir-size-attention.mlir covers the all-heads form): each
// pair of functions (Sq=300, Sk=500 and ten times longer, Sq=3000, Sk=5000;
// neither a multiple of the block rows, so both have a partial last block)
// decomposes to the same number of ops (counted in generic form, nested ops
// included). The awk script prints one count per function.
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk '/^\/\/ -----/ { print "ops", n; n = 0; next } /"[a-z_]+\.[a-z_.]+"/ { n++ } END { print "ops", n }' \
// RUN:   | FileCheck %s
// The blocks path is taken (an scf.forall over (batch, key/value head), an
// scf.for over blocks of query rows) in every function:
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg | FileCheck %s --check-prefix=BLOCKS

// CHECK: ops [[QUERY:[0-9]+]]
// CHECK-NEXT: ops [[QUERY]]
// CHECK: ops [[KEY:[0-9]+]]
// CHECK-NEXT: ops [[KEY]]
// CHECK: ops [[VALUE:[0-9]+]]
// CHECK-NEXT: ops [[VALUE]]
// CHECK: ops [[FORWARD:[0-9]+]]
// CHECK-NEXT: ops [[FORWARD]]
// CHECK: ops [[GROUPED:[0-9]+]]
// CHECK-NEXT: ops [[GROUPED]]
// CHECK-NOT: ops

// BLOCKS-LABEL: func.func @medium_query
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @medium_query(%q: tensor<2x8x300x64xf32>, %k: tensor<2x8x500x64xf32>, %v: tensor<2x8x500x64xf32>, %dy: tensor<2x8x300x64xf32>) -> tensor<2x8x300x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<causal>, softcap = 30.0 : f32, wrt = #rlx.attention_wrt<query>} : tensor<2x8x300x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x300x64xf32> -> tensor<2x8x300x64xf32>
  return %g : tensor<2x8x300x64xf32>
}

// -----

// BLOCKS-LABEL: func.func @long_query
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @long_query(%q: tensor<2x8x3000x64xf32>, %k: tensor<2x8x5000x64xf32>, %v: tensor<2x8x5000x64xf32>, %dy: tensor<2x8x3000x64xf32>) -> tensor<2x8x3000x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<causal>, softcap = 30.0 : f32, wrt = #rlx.attention_wrt<query>} : tensor<2x8x3000x64xf32>, tensor<2x8x5000x64xf32>, tensor<2x8x5000x64xf32>, tensor<2x8x3000x64xf32> -> tensor<2x8x3000x64xf32>
  return %g : tensor<2x8x3000x64xf32>
}

// -----

// BLOCKS-LABEL: func.func @medium_key
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @medium_key(%q: tensor<2x8x300x64xf32>, %k: tensor<2x8x500x64xf32>, %v: tensor<2x8x500x64xf32>, %dy: tensor<2x8x300x64xf32>) -> tensor<2x8x500x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<none>, wrt = #rlx.attention_wrt<key>} : tensor<2x8x300x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x300x64xf32> -> tensor<2x8x500x64xf32>
  return %g : tensor<2x8x500x64xf32>
}

// -----

// BLOCKS-LABEL: func.func @long_key
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @long_key(%q: tensor<2x8x3000x64xf32>, %k: tensor<2x8x5000x64xf32>, %v: tensor<2x8x5000x64xf32>, %dy: tensor<2x8x3000x64xf32>) -> tensor<2x8x5000x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<none>, wrt = #rlx.attention_wrt<key>} : tensor<2x8x3000x64xf32>, tensor<2x8x5000x64xf32>, tensor<2x8x5000x64xf32>, tensor<2x8x3000x64xf32> -> tensor<2x8x5000x64xf32>
  return %g : tensor<2x8x5000x64xf32>
}

// -----

// BLOCKS-LABEL: func.func @medium_value
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @medium_value(%q: tensor<2x8x300x64xf32>, %k: tensor<2x8x500x64xf32>, %v: tensor<2x8x500x64xf32>, %dy: tensor<2x8x300x64xf32>) -> tensor<2x8x500x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = 100 : i64, wrt = #rlx.attention_wrt<value>} : tensor<2x8x300x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x500x64xf32>, tensor<2x8x300x64xf32> -> tensor<2x8x500x64xf32>
  return %g : tensor<2x8x500x64xf32>
}

// -----

// BLOCKS-LABEL: func.func @long_value
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @long_value(%q: tensor<2x8x3000x64xf32>, %k: tensor<2x8x5000x64xf32>, %v: tensor<2x8x5000x64xf32>, %dy: tensor<2x8x3000x64xf32>) -> tensor<2x8x5000x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = 100 : i64, wrt = #rlx.attention_wrt<value>} : tensor<2x8x3000x64xf32>, tensor<2x8x5000x64xf32>, tensor<2x8x5000x64xf32>, tensor<2x8x3000x64xf32> -> tensor<2x8x5000x64xf32>
  return %g : tensor<2x8x5000x64xf32>
}

// -----

// BLOCKS-LABEL: func.func @medium_forward
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @medium_forward(%q: tensor<2x300x512xf32>, %k: tensor<2x500x512xf32>, %v: tensor<2x500x512xf32>) -> tensor<2x300x512xf32> {
  %o = rlx.attention %q, %k, %v {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<2x300x512xf32>, tensor<2x500x512xf32>, tensor<2x500x512xf32> -> tensor<2x300x512xf32>
  return %o : tensor<2x300x512xf32>
}

// -----

// BLOCKS-LABEL: func.func @long_forward
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @long_forward(%q: tensor<2x3000x512xf32>, %k: tensor<2x5000x512xf32>, %v: tensor<2x5000x512xf32>) -> tensor<2x3000x512xf32> {
  %o = rlx.attention %q, %k, %v {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<2x3000x512xf32>, tensor<2x5000x512xf32>, tensor<2x5000x512xf32> -> tensor<2x3000x512xf32>
  return %o : tensor<2x3000x512xf32>
}

// -----

// BLOCKS-LABEL: func.func @medium_grouped
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @medium_grouped(%q: tensor<2x300x1024xf32>, %k: tensor<2x500x256xf32>, %v: tensor<2x500x192xf32>, %dy: tensor<2x300x768xf32>) -> tensor<2x500x256xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 16 : i64, head_dim = 64 : i64, num_kv_heads = 4 : i64, value_head_dim = 48 : i64, mask_kind = #rlx.mask_kind<causal>, scale = 1.250000e-01 : f32, wrt = #rlx.attention_wrt<key>} : tensor<2x300x1024xf32>, tensor<2x500x256xf32>, tensor<2x500x192xf32>, tensor<2x300x768xf32> -> tensor<2x500x256xf32>
  return %g : tensor<2x500x256xf32>
}

// -----

// BLOCKS-LABEL: func.func @long_grouped
// BLOCKS: scf.forall
// BLOCKS: scf.for
func.func @long_grouped(%q: tensor<2x3000x1024xf32>, %k: tensor<2x5000x256xf32>, %v: tensor<2x5000x192xf32>, %dy: tensor<2x3000x768xf32>) -> tensor<2x5000x256xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 16 : i64, head_dim = 64 : i64, num_kv_heads = 4 : i64, value_head_dim = 48 : i64, mask_kind = #rlx.mask_kind<causal>, scale = 1.250000e-01 : f32, wrt = #rlx.attention_wrt<key>} : tensor<2x3000x1024xf32>, tensor<2x5000x256xf32>, tensor<2x5000x192xf32>, tensor<2x3000x768xf32> -> tensor<2x5000x256xf32>
  return %g : tensor<2x5000x256xf32>
}
