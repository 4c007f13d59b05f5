// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f16(%x: tensor<3x8xf16>, %c: tensor<3x2xf16>) -> tensor<3x8xf16> {
  // expected-error@+1 {{could not lower 'rlx.rope': element type 'f16' is not supported (only f32 and f64)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 2 : i64} : tensor<3x8xf16>, tensor<3x2xf16>, tensor<3x2xf16> -> tensor<3x8xf16>
  return %y : tensor<3x8xf16>
}
