// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @f8E5M2(%dy: tensor<2x3x8xf8E5M2>, %c: tensor<3x2xf8E5M2>) -> tensor<2x3x8xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.rope_backward': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %dx = rlx.rope_backward %dy, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf8E5M2>, tensor<3x2xf8E5M2>, tensor<3x2xf8E5M2> -> tensor<2x3x8xf8E5M2>
  return %dx : tensor<2x3x8xf8E5M2>
}
