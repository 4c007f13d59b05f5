// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @bf16(%x: tensor<4xbf16>, %dy: tensor<4xbf16>) -> tensor<4xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.fake_quantize_backward': element type 'bf16' is not supported (only f32 and f64)}}
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 8 : i64, ste = #rlx.ste<tanh>} : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xbf16>
  return %dx : tensor<4xbf16>
}
