// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  // expected-error@+1 {{could not lower 'rlx.cumsum': element type 'bf16' is not supported (only f32 and f64)}}
  %y = rlx.cumsum %x {axis = 0 : i64} : tensor<4xbf16> -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}
