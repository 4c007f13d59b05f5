// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

// Any dim may be dynamic; element types other than f32/f64 are rejected.

func.func @conv_f8E4M3FN(%x: tensor<2x3x8x8xf8E4M3FN>, %w: tensor<4x3x3x3xf8E4M3FN>) -> tensor<2x4x6x6xf8E4M3FN> {
  // expected-error@+1 {{could not lower 'rlx.conv2d': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %y = rlx.conv2d %x, %w : tensor<2x3x8x8xf8E4M3FN>, tensor<4x3x3x3xf8E4M3FN> -> tensor<2x4x6x6xf8E4M3FN>
  return %y : tensor<2x4x6x6xf8E4M3FN>
}
