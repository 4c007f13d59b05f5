// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f16_forward(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x2x2xf16> {
  // expected-error@+1 {{could not lower 'rlx.max_pool2d': element type 'f16' is not supported (only f32 and f64)}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf16> -> tensor<1x2x2x2xf16>
  return %y : tensor<1x2x2x2xf16>
}
