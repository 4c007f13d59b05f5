// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f8E4M3FN(%x: tensor<3x8xf8E4M3FN>, %c: tensor<3x2xf8E4M3FN>) -> tensor<3x8xf8E4M3FN> {
  // expected-error@+1 {{could not lower 'rlx.rope': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 2 : i64} : tensor<3x8xf8E4M3FN>, tensor<3x2xf8E4M3FN>, tensor<3x2xf8E4M3FN> -> tensor<3x8xf8E4M3FN>
  return %y : tensor<3x8xf8E4M3FN>
}
