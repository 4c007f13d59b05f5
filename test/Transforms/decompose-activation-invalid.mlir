// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @f8E5M2(%x: tensor<4xf8E5M2>, %dy: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.relu_backward': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %dx = rlx.relu_backward %x, %dy : tensor<4xf8E5M2>, tensor<4xf8E5M2> -> tensor<4xf8E5M2>
  return %dx : tensor<4xf8E5M2>
}

// PARTIAL: warning: could not decompose 'rlx.relu_backward'
// PARTIAL: rlx.relu_backward
