// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial --rlx-lower-to-linalg=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @bf16_backward(%h0: tensor<4xbf16>, %t: tensor<3x4xbf16>, %dy: tensor<3x4xbf16>) -> tensor<4xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.scan_backward': element type 'bf16' is not supported (only f32 and f64)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64} : tensor<4xbf16>, tensor<3x4xbf16>, tensor<3x4xbf16> -> tensor<4xbf16> vjp {
  ^bb0(%h: tensor<4xbf16>, %g: tensor<4xbf16>):
    rlx.yield %g : tensor<4xbf16>
  }
  return %d : tensor<4xbf16>
}

// -----

func.func @f16_forward(%h0: tensor<4xf16>, %x: tensor<3x4xf16>) -> tensor<4xf16> {
  // expected-error@+1 {{could not lower 'rlx.scan': element type 'f16' is not supported (only f32 and f64)}}
  %c = rlx.scan %h0 xs(%x : tensor<3x4xf16>) {length = 3 : i64} : tensor<4xf16> -> tensor<4xf16> {
  ^bb0(%h: tensor<4xf16>, %xt: tensor<4xf16>):
    rlx.yield %xt : tensor<4xf16>
  }
  return %c : tensor<4xf16>
}

// PARTIAL: warning: could not decompose 'rlx.scan_backward'
// PARTIAL: rlx.scan_backward
// PARTIAL: warning: could not lower 'rlx.scan'
// PARTIAL: rlx.scan
