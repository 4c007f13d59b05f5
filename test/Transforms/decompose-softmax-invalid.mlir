// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @f8E5M2(%l: tensor<4x5xf8E5M2>, %t: tensor<4xi64>, %d: tensor<4xf8E5M2>) -> tensor<4x5xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.softmax_cross_entropy_backward': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf8E5M2>, tensor<4xi64>, tensor<4xf8E5M2> -> tensor<4x5xf8E5M2>
  return %dl : tensor<4x5xf8E5M2>
}

// PARTIAL: warning: could not decompose 'rlx.softmax_cross_entropy_backward'
// PARTIAL: rlx.softmax_cross_entropy_backward
