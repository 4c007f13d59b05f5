// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @f8E5M2_backward(%x: tensor<1x2x4x4xf8E5M2>, %dy: tensor<1x2x2x2xf8E5M2>) -> tensor<1x2x4x4xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.max_pool2d_backward': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf8E5M2>, tensor<1x2x2x2xf8E5M2> -> tensor<1x2x4x4xf8E5M2>
  return %dx : tensor<1x2x4x4xf8E5M2>
}

// PARTIAL: warning: could not decompose 'rlx.max_pool2d_backward'
// PARTIAL: rlx.max_pool2d_backward
