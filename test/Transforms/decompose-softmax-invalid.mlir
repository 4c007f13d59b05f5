// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @bf16(%l: tensor<4x5xbf16>, %t: tensor<4xi64>, %d: tensor<4xbf16>) -> tensor<4x5xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.softmax_cross_entropy_backward': element type 'bf16' is not supported (only f32 and f64)}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xbf16>, tensor<4xi64>, tensor<4xbf16> -> tensor<4x5xbf16>
  return %dl : tensor<4x5xbf16>
}

// PARTIAL: warning: could not decompose 'rlx.softmax_cross_entropy_backward'
// PARTIAL: rlx.softmax_cross_entropy_backward
