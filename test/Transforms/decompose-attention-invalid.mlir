// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @f8E5M2_backward(%q: tensor<2x3x8xf8E5M2>) -> tensor<2x3x8xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.attention_backward': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %g = rlx.attention_backward %q, %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<query>} : tensor<2x3x8xf8E5M2>, tensor<2x3x8xf8E5M2>, tensor<2x3x8xf8E5M2>, tensor<2x3x8xf8E5M2> -> tensor<2x3x8xf8E5M2>
  return %g : tensor<2x3x8xf8E5M2>
}
