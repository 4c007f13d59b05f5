// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f16_forward(%q: tensor<2x2x3x4xf16>) -> tensor<2x2x3x4xf16> {
  // expected-error@+1 {{could not lower 'rlx.attention': element type 'f16' is not supported (only f32 and f64)}}
  %o = rlx.attention %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64} : tensor<2x2x3x4xf16>, tensor<2x2x3x4xf16>, tensor<2x2x3x4xf16> -> tensor<2x2x3x4xf16>
  return %o : tensor<2x2x3x4xf16>
}
