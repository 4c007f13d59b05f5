// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f8E5M2(%t: tensor<10x4xf8E5M2>, %ids: tensor<3xi32>) -> tensor<3x4xf8E5M2> {
  // expected-error@+1 {{could not lower 'rlx.gather': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %y = rlx.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf8E5M2>, tensor<3xi32> -> tensor<3x4xf8E5M2>
  return %y : tensor<3x4xf8E5M2>
}
