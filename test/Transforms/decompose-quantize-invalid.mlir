// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @f8E5M2(%x: tensor<4xf8E5M2>, %dy: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.fake_quantize_backward': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 8 : i64, ste = #rlx.ste<tanh>} : tensor<4xf8E5M2>, tensor<4xf8E5M2> -> tensor<4xf8E5M2>
  return %dx : tensor<4xf8E5M2>
}
