// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @bf16(%dy: tensor<2x3x8xbf16>, %c: tensor<3x2xbf16>) -> tensor<2x3x8xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.rope_backward': element type 'bf16' is not supported (only f32 and f64)}}
  %dx = rlx.rope_backward %dy, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xbf16>, tensor<3x2xbf16>, tensor<3x2xbf16> -> tensor<2x3x8xbf16>
  return %dx : tensor<2x3x8xbf16>
}
