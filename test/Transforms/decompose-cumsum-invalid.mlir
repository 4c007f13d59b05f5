// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @f16(%dy: tensor<?x4xf16>) -> tensor<?x4xf16> {
  // expected-error@+1 {{could not decompose 'rlx.cumsum_backward': element type 'f16' is not supported (only f32 and f64)}}
  %dx = rlx.cumsum_backward %dy {axis = 0 : i64} : tensor<?x4xf16> -> tensor<?x4xf16>
  return %dx : tensor<?x4xf16>
}
