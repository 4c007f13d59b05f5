// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @dynamic_rows(%dy: tensor<3x4xf32>, %ids: tensor<3xi32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{could not decompose 'rlx.gather_backward': the gathered dimension 0 of the result type is dynamic; its length (the number of table rows) is known only from the result type and must be static}}
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<3x4xf32>, tensor<3xi32> -> tensor<?x4xf32>
  return %dt : tensor<?x4xf32>
}

// -----

func.func @f8E4M3FN(%dy: tensor<3x4xf8E4M3FN>, %ids: tensor<3xi64>) -> tensor<10x4xf8E4M3FN> {
  // expected-error@+1 {{could not decompose 'rlx.gather_backward': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<3x4xf8E4M3FN>, tensor<3xi64> -> tensor<10x4xf8E4M3FN>
  return %dt : tensor<10x4xf8E4M3FN>
}
