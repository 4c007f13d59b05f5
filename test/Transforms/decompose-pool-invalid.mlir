// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

func.func @bf16_backward(%x: tensor<1x2x4x4xbf16>, %dy: tensor<1x2x2x2xbf16>) -> tensor<1x2x4x4xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.max_pool2d_backward': element type 'bf16' is not supported (only f32 and f64)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xbf16>, tensor<1x2x2x2xbf16> -> tensor<1x2x4x4xbf16>
  return %dx : tensor<1x2x4x4xbf16>
}

// PARTIAL: warning: could not decompose 'rlx.max_pool2d_backward'
// PARTIAL: rlx.max_pool2d_backward
