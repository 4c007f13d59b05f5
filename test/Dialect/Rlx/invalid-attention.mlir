// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @q_rank(%q: tensor<3x8xf32>, %k: tensor<5x8xf32>, %v: tensor<5x8xf32>) -> tensor<3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'q' to have rank 3 or 4, got 2}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<3x8xf32>, tensor<5x8xf32>, tensor<5x8xf32> -> tensor<3x8xf32>
  return %o : tensor<3x8xf32>
}

// -----

func.func @k_rank(%q: tensor<2x3x8xf32>, %k: tensor<2x5x2x4xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'k' to have rank 3, got 4}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x5x2x4xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @dy_rank(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %dy: tensor<2x2x3x4xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects 'dy' to have rank 3, got 4}}
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<query>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x2x3x4xf32> -> tensor<2x3x8xf32>
  return %g : tensor<2x3x8xf32>
}

// -----

func.func @element_type(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf64>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'q' and 'v' to have the same element type, got 'f32' and 'f64'}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf64> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @mask_element_type(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %m: tensor<3x5xf64>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'q' and 'mask' to have the same element type, got 'f32' and 'f64'}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<3x5xf64> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @num_heads(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'num_heads' to be positive, got 0}}
  %o = rlx.attention %q, %k, %v {num_heads = 0 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @head_dim(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'head_dim' to be positive, got -4}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = -4 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @heads_rank4(%q: tensor<2x2x3x4xf32>, %k: tensor<2x3x5x4xf32>, %v: tensor<2x2x5x4xf32>) -> tensor<2x2x3x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 1 of 'k' (3) to equal num_heads (2)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x2x3x4xf32>, tensor<2x3x5x4xf32>, tensor<2x2x5x4xf32> -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

func.func @head_dim_rank4(%q: tensor<2x2x3x8xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>) -> tensor<2x2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 3 of 'q' (8) to equal head_dim (4)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x2x3x8xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32> -> tensor<2x2x3x8xf32>
  return %o : tensor<2x2x3x8xf32>
}

// -----

func.func @width_rank3(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x6xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 2 of 'v' (6) to equal num_heads * head_dim (8)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x6xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @batch(%q: tensor<2x3x8xf32>, %k: tensor<3x5x8xf32>, %v: tensor<3x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 0 of 'k' (3) to equal dim 0 of 'q' (2)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<3x5x8xf32>, tensor<3x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @key_value_length(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 1 of 'v' (4) to equal dim 1 of 'k' (5)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x4x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @dy_shape(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %dy: tensor<2x2x5x4xf32>) -> tensor<2x2x5x4xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 2 of 'dy' (5) to equal dim 2 of 'q' (3)}}
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<value>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32> -> tensor<2x2x5x4xf32>
  return %g : tensor<2x2x5x4xf32>
}

// -----

func.func @result_shape(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x5x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 1 of 'result' (5) to equal dim 1 of 'q' (3)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x5x8xf32>
  return %o : tensor<2x5x8xf32>
}

// -----

func.func @result_wrt_key(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %dy: tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 2 of 'result' (3) to equal dim 2 of 'k' (5)}}
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<key>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  return %g : tensor<2x2x3x4xf32>
}

// -----

func.func @result_wrt_query(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %dy: tensor<2x3x8xf32>) -> tensor<2x5x8xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 1 of 'result' (5) to equal dim 1 of 'q' (3)}}
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<query>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x3x8xf32> -> tensor<2x5x8xf32>
  return %g : tensor<2x5x8xf32>
}

// -----

func.func @window_missing(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects a 'window' attribute with mask_kind sliding_window}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<sliding_window>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @window_unexpected(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects no 'window' attribute with mask_kind causal (only sliding_window takes one)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>, window = 2 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @window_negative(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'window' to be non-negative, got -1}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = -1 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @scale(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'scale' to be positive and finite, got 0}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, scale = 0.0 : f32} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @softcap(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'softcap' to be positive and finite, got -5}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, softcap = -5.0 : f32} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @softcap_inf(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %dy: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects 'softcap' to be positive and finite, got INF}}
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, softcap = 0x7F800000 : f32, wrt = #rlx.attention_wrt<query>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  return %g : tensor<2x3x8xf32>
}

// -----

func.func @mask_missing(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects a 'mask' operand with mask_kind custom}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @mask_unexpected(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %m: tensor<2x5xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects no 'mask' operand with mask_kind causal (only custom and bias take one)}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @mask_unexpected_none(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %m: tensor<3x5xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects no 'mask' operand with mask_kind none (only custom and bias take one)}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<3x5xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @custom_rank(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %m: tensor<2x3x5xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects a 'custom' 'mask' of rank 2 ([B, Sk]) or 4 ([B, H, Sq, Sk]), got rank 3}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x3x5xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @custom_keys(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %m: tensor<2x3xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 1 of the 'custom' 'mask' (3) to equal Sk (5)}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x3xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @custom_batch(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %m: tensor<1x2x3x5xf32>) -> tensor<2x2x3x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 0 of the 'custom' 'mask' (1) to equal B (2)}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<1x2x3x5xf32> -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

func.func @bias_rank(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %m: tensor<5xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects a 'bias' 'mask' of rank 2 ([Sq, Sk]) or 4 (broadcastable to [B, H, Sq, Sk]), got rank 1}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<5xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @bias_rows(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %m: tensor<5x5xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 0 of the 'bias' 'mask' (5) to equal Sq (3)}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>} : tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<5x5xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @bias_broadcast(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %m: tensor<1x3x3x5xf32>) -> tensor<2x2x3x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 1 of the 'bias' 'mask' (3) to equal H (2) or 1}}
  %o = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<1x3x3x5xf32> -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

func.func @bias_keys_backward(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %dy: tensor<2x2x3x4xf32>, %m: tensor<2x2x3x4xf32>) -> tensor<2x2x5x4xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 3 of the 'bias' 'mask' (4) to equal Sk (5) or 1}}
  %g = rlx.attention_backward %q, %k, %v, %dy, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<value>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32> -> tensor<2x2x5x4xf32>
  return %g : tensor<2x2x5x4xf32>
}

// -----

func.func @wrt_value(%q: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+2 {{expected ::mlir::rlx::AttentionWrt to be one of: query, key, value}}
  // expected-error@+1 {{failed to parse Rlx_AttentionWrtAttr parameter 'value'}}
  %g = rlx.attention_backward %q, %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<output>} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  return %g : tensor<2x3x8xf32>
}

// -----

func.func @wrt_missing(%q: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op requires attribute 'wrt'}}
  %g = rlx.attention_backward %q, %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  return %g : tensor<2x3x8xf32>
}

// -----

func.func @num_heads_missing(%q: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op requires attribute 'num_heads'}}
  %o = rlx.attention %q, %q, %q {head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @mask_kind_value(%q: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+2 {{expected ::mlir::rlx::MaskKind to be one of: none, causal, sliding_window, custom, bias}}
  // expected-error@+1 {{failed to parse Rlx_MaskKindAttr parameter 'value'}}
  %o = rlx.attention %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<alibi>} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @integer_mask(%q: tensor<2x3x8xf32>, %m: tensor<2x3xi1>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op operand #3 must be ranked tensor of floating-point values, but got 'tensor<2x3xi1>'}}
  %o = rlx.attention %q, %q, %q, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3xi1> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @result_element_type(%q: tensor<2x3x8xf32>) -> tensor<2x3x8xf64> {
  // expected-error@+1 {{'rlx.attention_backward' op expects 'q' and 'result' to have the same element type, got 'f32' and 'f64'}}
  %g = rlx.attention_backward %q, %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<value>} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf64>
  return %g : tensor<2x3x8xf64>
}

// -----

func.func @custom_rank2_batch(%q: tensor<2x3x8xf32>, %m: tensor<4x3xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 0 of the 'custom' 'mask' (4) to equal B (2)}}
  %o = rlx.attention %q, %q, %q, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<4x3xf32> -> tensor<2x3x8xf32>
  return %o : tensor<2x3x8xf32>
}

// -----

func.func @dy_batch(%q: tensor<2x3x8xf32>, %dy: tensor<3x3x8xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 0 of 'dy' (3) to equal dim 0 of 'q' (2)}}
  %g = rlx.attention_backward %q, %q, %q, %dy {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<query>} : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<3x3x8xf32> -> tensor<2x3x8xf32>
  return %g : tensor<2x3x8xf32>
}

// -----

// Static facts are checked even when the operands are fully dynamic.
func.func @dynamic_operands_static_result(%q: tensor<?x?x?xf32>, %m: tensor<?x?x?x?xf32>) -> tensor<?x?x?xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 2 of 'result' (6) to equal num_heads * head_dim (8)}}
  %o = rlx.attention %q, %q, %q, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>} : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x6xf32>
  return %q : tensor<?x?x?xf32>
}

// -----

// num_heads * head_dim wrapped to 0 used to accept an H*D dim of 0 and expand
// it into [.., 2^32, 2^32].
func.func @width_overflow(%q: tensor<2x4x0xf32>) -> tensor<2x4x0xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'num_heads' * 'head_dim' (4294967296 * 4294967296) to fit in 64 bits}}
  %o = rlx.attention %q, %q, %q {num_heads = 4294967296 : i64, head_dim = 4294967296 : i64, mask_kind = #rlx.mask_kind<none>} : tensor<2x4x0xf32>, tensor<2x4x0xf32>, tensor<2x4x0xf32> -> tensor<2x4x0xf32>
  return %o : tensor<2x4x0xf32>
}

// -----

func.func @k_vs_v_batch_dynamic_q(%q: tensor<?x4x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<3x6x4xf32>) -> tensor<?x4x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 0 of 'v' (3) to equal dim 0 of 'k' (2)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<none>} : tensor<?x4x4xf32>, tensor<2x6x4xf32>, tensor<3x6x4xf32> -> tensor<?x4x4xf32>
  return %o : tensor<?x4x4xf32>
}

// -----

// The mask is checked against B and Sq of k and dy when q is dynamic.
func.func @mask_batch_from_k(%q: tensor<?x?x4xf32>, %k: tensor<2x6x4xf32>, %m: tensor<3x6xf32>) -> tensor<?x?x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 0 of the 'custom' 'mask' (3) to equal B (2)}}
  %o = rlx.attention %q, %k, %k, %m {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<?x?x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<3x6xf32> -> tensor<?x?x4xf32>
  return %o : tensor<?x?x4xf32>
}

// -----

func.func @mask_sq_from_dy(%q: tensor<?x?x4xf32>, %k: tensor<2x6x4xf32>, %dy: tensor<2x5x4xf32>, %m: tensor<4x6xf32>) -> tensor<2x6x4xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 0 of the 'bias' 'mask' (4) to equal Sq (5)}}
  %o = rlx.attention_backward %q, %k, %k, %dy, %m {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<key>} : tensor<?x?x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x5x4xf32>, tensor<4x6xf32> -> tensor<2x6x4xf32>
  return %o : tensor<2x6x4xf32>
}

// -----

// Grouped-query heads and the value head dim.

func.func @kv_heads_not_dividing(%q: tensor<2x3x3x4xf32>, %k: tensor<2x2x5x4xf32>) -> tensor<2x3x3x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'num_kv_heads' (2) to divide 'num_heads' (3)}}
  %o = rlx.attention %q, %k, %k {num_heads = 3 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64} : tensor<2x3x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32> -> tensor<2x3x3x4xf32>
  return %o : tensor<2x3x3x4xf32>
}

// -----

func.func @kv_heads_zero(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>) -> tensor<2x2x3x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'num_kv_heads' to be positive, got 0}}
  %o = rlx.attention %q, %k, %k {num_heads = 2 : i64, head_dim = 4 : i64, num_kv_heads = 0 : i64} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32> -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

func.func @value_head_dim_negative(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>) -> tensor<2x2x3x4xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects 'value_head_dim' to be positive, got -2}}
  %o = rlx.attention_backward %q, %k, %k, %q {num_heads = 2 : i64, head_dim = 4 : i64, value_head_dim = -2 : i64, wrt = #rlx.attention_wrt<query>} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x3x4xf32> -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

func.func @k_heads_not_kv_heads(%q: tensor<2x4x3x4xf32>, %k: tensor<2x4x5x4xf32>, %v: tensor<2x2x5x4xf32>) -> tensor<2x4x3x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 1 of 'k' (4) to equal num_kv_heads (2)}}
  %o = rlx.attention %q, %k, %v {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64} : tensor<2x4x3x4xf32>, tensor<2x4x5x4xf32>, tensor<2x2x5x4xf32> -> tensor<2x4x3x4xf32>
  return %o : tensor<2x4x3x4xf32>
}

// -----

func.func @v_width_seq_major(%q: tensor<2x3x16xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x3x24xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 2 of 'v' (8) to equal num_kv_heads * value_head_dim (12)}}
  %o = rlx.attention %q, %k, %v {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64} : tensor<2x3x16xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x3x24xf32>
  return %o : tensor<2x3x24xf32>
}

// -----

func.func @result_not_value_head_dim(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x6xf32>) -> tensor<2x2x3x4xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 3 of 'result' (4) to equal value_head_dim (6)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, value_head_dim = 6 : i64} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x6xf32> -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

func.func @v_without_value_head_dim(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x6xf32>) -> tensor<2x2x3x6xf32> {
  // expected-error@+1 {{'rlx.attention' op expects dim 3 of 'v' (6) to equal head_dim (4)}}
  %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x6xf32> -> tensor<2x2x3x6xf32>
  return %o : tensor<2x2x3x6xf32>
}

// -----

func.func @dy_not_output_shape(%q: tensor<2x3x8xf32>, %k: tensor<2x5x4xf32>, %v: tensor<2x5x6xf32>, %dy: tensor<2x3x8xf32>) -> tensor<2x5x6xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 2 of 'dy' (8) to equal num_heads * value_head_dim (12)}}
  %o = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, num_kv_heads = 1 : i64, value_head_dim = 6 : i64, wrt = #rlx.attention_wrt<value>} : tensor<2x3x8xf32>, tensor<2x5x4xf32>, tensor<2x5x6xf32>, tensor<2x3x8xf32> -> tensor<2x5x6xf32>
  return %o : tensor<2x5x6xf32>
}

// -----

func.func @dk_not_k_shape(%q: tensor<2x4x3x4xf32>, %k: tensor<2x2x5x4xf32>, %dy: tensor<2x4x3x4xf32>) -> tensor<2x4x5x4xf32> {
  // expected-error@+1 {{'rlx.attention_backward' op expects dim 1 of 'result' (4) to equal dim 1 of 'k' (2)}}
  %o = rlx.attention_backward %q, %k, %k, %dy {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, wrt = #rlx.attention_wrt<key>} : tensor<2x4x3x4xf32>, tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>, tensor<2x4x3x4xf32> -> tensor<2x4x5x4xf32>
  return %o : tensor<2x4x5x4xf32>
}

// -----

func.func @value_width_overflow(%q: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  // expected-error@+1 {{'rlx.attention' op expects 'num_heads' * 'value_head_dim' (4294967296 * 4294967296) to fit in 64 bits}}
  %o = rlx.attention %q, %q, %q {num_heads = 4294967296 : i64, head_dim = 1 : i64, value_head_dim = 4294967296 : i64} : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %o : tensor<?x?x?xf32>
}
