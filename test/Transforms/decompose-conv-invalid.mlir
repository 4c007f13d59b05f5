// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

// Only the batch dim may be dynamic; element types other than f32/f64 are rejected.

func.func @weight_dynamic_channels(%x: tensor<2x?x8x8xf32>, %dy: tensor<2x4x8x8xf32>) -> tensor<4x3x3x3xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_weight': requires static channel and spatial sizes of 'x' (dim 1 is dynamic; only the batch dim may be)}}
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<2x?x8x8xf32>, tensor<2x4x8x8xf32> -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}

// -----

func.func @weight_dynamic_spatial(%x: tensor<2x3x8x8xf32>, %dy: tensor<2x4x?x8xf32>) -> tensor<4x3x3x3xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_weight': requires static channel and spatial sizes of 'dy' (dim 2 is dynamic; only the batch dim may be)}}
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<2x3x8x8xf32>, tensor<2x4x?x8xf32> -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}

// -----

func.func @weight_dynamic_kernel(%x: tensor<2x3x8x8xf32>, %dy: tensor<2x4x8x8xf32>) -> tensor<4x3x?x3xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_weight': requires a static kernel size (dims 2 and 3 of 'dw')}}
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<2x3x8x8xf32>, tensor<2x4x8x8xf32> -> tensor<4x3x?x3xf32>
  return %dw : tensor<4x3x?x3xf32>
}

// -----

func.func @input_dynamic_weight(%dy: tensor<2x4x6x6xf32>, %w: tensor<?x3x3x3xf32>) -> tensor<2x3x8x8xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_input': requires static sizes of 'w' (dim 0 is dynamic)}}
  %dx = rlx.conv2d_backward_input %dy, %w : tensor<2x4x6x6xf32>, tensor<?x3x3x3xf32> -> tensor<2x3x8x8xf32>
  return %dx : tensor<2x3x8x8xf32>
}

// -----

func.func @input_dynamic_result(%dy: tensor<2x4x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x3x?x8xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_input': requires static channel and spatial sizes of 'dx' (dim 2 is dynamic; only the batch dim may be)}}
  %dx = rlx.conv2d_backward_input %dy, %w : tensor<2x4x6x6xf32>, tensor<4x3x3x3xf32> -> tensor<2x3x?x8xf32>
  return %dx : tensor<2x3x?x8xf32>
}

// -----

func.func @input_bf16(%dy: tensor<2x4x6x6xbf16>, %w: tensor<4x3x3x3xbf16>) -> tensor<2x3x8x8xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_input': element type 'bf16' is not supported (only f32 and f64)}}
  %dx = rlx.conv2d_backward_input %dy, %w : tensor<2x4x6x6xbf16>, tensor<4x3x3x3xbf16> -> tensor<2x3x8x8xbf16>
  return %dx : tensor<2x3x8x8xbf16>
}
