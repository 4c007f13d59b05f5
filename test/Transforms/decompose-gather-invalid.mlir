// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @dynamic_rows(%dy: tensor<3x4xf32>, %ids: tensor<3xi32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{could not decompose 'rlx.gather_backward': the gathered dimension 0 of the result type is dynamic; its length (the number of table rows) is known only from the result type and must be static}}
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<3x4xf32>, tensor<3xi32> -> tensor<?x4xf32>
  return %dt : tensor<?x4xf32>
}

// -----

func.func @f16(%dy: tensor<3x4xf16>, %ids: tensor<3xi64>) -> tensor<10x4xf16> {
  // expected-error@+1 {{could not decompose 'rlx.gather_backward': element type 'f16' is not supported (only f32 and f64)}}
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<3x4xf16>, tensor<3xi64> -> tensor<10x4xf16>
  return %dt : tensor<10x4xf16>
}
