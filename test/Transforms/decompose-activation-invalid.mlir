// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @bf16(%x: tensor<4xbf16>, %dy: tensor<4xbf16>) -> tensor<4xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.relu_backward': element type 'bf16' is not supported (only f32 and f64)}}
  %dx = rlx.relu_backward %x, %dy : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xbf16>
  return %dx : tensor<4xbf16>
}

// PARTIAL: warning: could not decompose 'rlx.relu_backward'
// PARTIAL: rlx.relu_backward
