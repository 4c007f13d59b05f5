// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

func.func @f8E4M3FN(%dy: tensor<?x4xf8E4M3FN>) -> tensor<?x4xf8E4M3FN> {
  // expected-error@+1 {{could not decompose 'rlx.cumsum_backward': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %dx = rlx.cumsum_backward %dy {axis = 0 : i64} : tensor<?x4xf8E4M3FN> -> tensor<?x4xf8E4M3FN>
  return %dx : tensor<?x4xf8E4M3FN>
}
