// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @bf16(%t: tensor<10x4xbf16>, %ids: tensor<3xi32>) -> tensor<3x4xbf16> {
  // expected-error@+1 {{could not lower 'rlx.gather': element type 'bf16' is not supported (only f32 and f64)}}
  %y = rlx.gather %t, %ids {axis = 0 : i64} : tensor<10x4xbf16>, tensor<3xi32> -> tensor<3x4xbf16>
  return %y : tensor<3x4xbf16>
}
