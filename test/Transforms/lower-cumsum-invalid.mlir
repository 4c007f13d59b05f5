// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f8E5M2(%x: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  // expected-error@+1 {{could not lower 'rlx.cumsum': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %y = rlx.cumsum %x {axis = 0 : i64} : tensor<4xf8E5M2> -> tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}
