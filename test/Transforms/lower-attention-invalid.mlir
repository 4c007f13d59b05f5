// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f8E4M3FN_forward(%q: tensor<2x2x3x4xf8E4M3FN>) -> tensor<2x2x3x4xf8E4M3FN> {
  // expected-error@+1 {{could not lower 'rlx.attention': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %o = rlx.attention %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x2x3x4xf8E4M3FN>, tensor<2x2x3x4xf8E4M3FN>, tensor<2x2x3x4xf8E4M3FN> -> tensor<2x2x3x4xf8E4M3FN>
  return %o : tensor<2x2x3x4xf8E4M3FN>
}
