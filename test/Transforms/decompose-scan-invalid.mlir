// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial --rlx-lower-to-linalg=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @f8E5M2_backward(%h0: tensor<4xf8E5M2>, %t: tensor<3x4xf8E5M2>, %dy: tensor<3x4xf8E5M2>) -> tensor<4xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.scan_backward': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64} : tensor<4xf8E5M2>, tensor<3x4xf8E5M2>, tensor<3x4xf8E5M2> -> tensor<4xf8E5M2> vjp {
  ^bb0(%h: tensor<4xf8E5M2>, %g: tensor<4xf8E5M2>):
    rlx.yield %g : tensor<4xf8E5M2>
  }
  return %d : tensor<4xf8E5M2>
}

// -----

func.func @f8E4M3FN_forward(%h0: tensor<4xf8E4M3FN>, %x: tensor<3x4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{could not lower 'rlx.scan': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %c = rlx.scan %h0 xs(%x : tensor<3x4xf8E4M3FN>) {length = 3 : i64} : tensor<4xf8E4M3FN> -> tensor<4xf8E4M3FN> {
  ^bb0(%h: tensor<4xf8E4M3FN>, %xt: tensor<4xf8E4M3FN>):
    rlx.yield %xt : tensor<4xf8E4M3FN>
  }
  return %c : tensor<4xf8E4M3FN>
}

// PARTIAL: warning: could not decompose 'rlx.scan_backward'
// PARTIAL: rlx.scan_backward
// PARTIAL: warning: could not lower 'rlx.scan'
// PARTIAL: rlx.scan
