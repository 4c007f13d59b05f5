// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @bf16_backward(%q: tensor<2x3x8xbf16>) -> tensor<2x3x8xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.attention_backward': element type 'bf16' is not supported (only f32 and f64)}}
  %g = rlx.attention_backward %q, %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<query>} : tensor<2x3x8xbf16>, tensor<2x3x8xbf16>, tensor<2x3x8xbf16>, tensor<2x3x8xbf16> -> tensor<2x3x8xbf16>
  return %g : tensor<2x3x8xbf16>
}
