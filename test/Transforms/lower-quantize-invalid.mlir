// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f8E4M3FN(%x: tensor<4x3xf8E4M3FN>) -> tensor<4x3xf8E4M3FN> {
  // expected-error@+1 {{could not lower 'rlx.fake_quantize': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %y = rlx.fake_quantize %x {axis = 0 : i64, bits = 4 : i64} : tensor<4x3xf8E4M3FN> -> tensor<4x3xf8E4M3FN>
  return %y : tensor<4x3xf8E4M3FN>
}
