// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

// Only the batch dim may be dynamic; element types other than f32/f64 are rejected.

func.func @conv_dynamic_spatial(%x: tensor<2x3x?x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x?x6xf32> {
  // expected-error@+1 {{could not lower 'rlx.conv2d': requires static channel and spatial sizes of 'x' (dim 2 is dynamic; only the batch dim may be)}}
  %y = rlx.conv2d %x, %w : tensor<2x3x?x8xf32>, tensor<4x3x3x3xf32> -> tensor<2x4x?x6xf32>
  return %y : tensor<2x4x?x6xf32>
}

// -----

func.func @conv_dynamic_weight(%x: tensor<2x3x8x8xf32>, %w: tensor<?x3x3x3xf32>) -> tensor<2x?x6x6xf32> {
  // expected-error@+1 {{could not lower 'rlx.conv2d': requires static sizes of 'w' (dim 0 is dynamic)}}
  %y = rlx.conv2d %x, %w : tensor<2x3x8x8xf32>, tensor<?x3x3x3xf32> -> tensor<2x?x6x6xf32>
  return %y : tensor<2x?x6x6xf32>
}

// -----

func.func @conv_f16(%x: tensor<2x3x8x8xf16>, %w: tensor<4x3x3x3xf16>) -> tensor<2x4x6x6xf16> {
  // expected-error@+1 {{could not lower 'rlx.conv2d': element type 'f16' is not supported (only f32 and f64)}}
  %y = rlx.conv2d %x, %w : tensor<2x3x8x8xf16>, tensor<4x3x3x3xf16> -> tensor<2x4x6x6xf16>
  return %y : tensor<2x4x6x6xf16>
}
