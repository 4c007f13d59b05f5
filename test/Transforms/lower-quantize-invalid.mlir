// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f16(%x: tensor<4x3xf16>) -> tensor<4x3xf16> {
  // expected-error@+1 {{could not lower 'rlx.fake_quantize': element type 'f16' is not supported (only f32 and f64)}}
  %y = rlx.fake_quantize %x {axis = 0 : i64, bits = 4 : i64} : tensor<4x3xf16> -> tensor<4x3xf16>
  return %y : tensor<4x3xf16>
}
