// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

// Any dim may be dynamic; element types other than f32/f64 are rejected.

func.func @conv_f16(%x: tensor<2x3x8x8xf16>, %w: tensor<4x3x3x3xf16>) -> tensor<2x4x6x6xf16> {
  // expected-error@+1 {{could not lower 'rlx.conv2d': element type 'f16' is not supported (only f32 and f64)}}
  %y = rlx.conv2d %x, %w : tensor<2x3x8x8xf16>, tensor<4x3x3x3xf16> -> tensor<2x4x6x6xf16>
  return %y : tensor<2x4x6x6xf16>
}
