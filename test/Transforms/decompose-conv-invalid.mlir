// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics

// Any operand dim may be dynamic. A dynamic result dim must follow from the
// operands: the H/W of dx and the kernel of dw cannot when the stride (for
// dw, or the dilation) along that axis is > 1. Element types other than
// f32/f64 are rejected.

func.func @weight_dynamic_kernel_strided(%x: tensor<2x3x8x8xf32>, %dy: tensor<2x4x4x8xf32>) -> tensor<4x3x?x3xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_weight': requires a static dim 2 of 'dw' (the kernel size) unless the stride and dilation along it are 1 (several kernel sizes give the same output size)}}
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>, stride = array<i64: 2, 1>} : tensor<2x3x8x8xf32>, tensor<2x4x4x8xf32> -> tensor<4x3x?x3xf32>
  return %dw : tensor<4x3x?x3xf32>
}

// -----

func.func @weight_dynamic_kernel_dilated(%x: tensor<?x?x?x?xf32>, %dy: tensor<?x?x?x?xf32>) -> tensor<?x?x3x?xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_weight': requires a static dim 3 of 'dw' (the kernel size) unless the stride and dilation along it are 1 (several kernel sizes give the same output size)}}
  %dw = rlx.conv2d_backward_weight %x, %dy {dilation = array<i64: 1, 2>} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x3x?xf32>
  return %dw : tensor<?x?x3x?xf32>
}

// -----

func.func @input_dynamic_result_strided(%dy: tensor<2x4x3x6xf32>, %w: tensor<?x3x3x3xf32>) -> tensor<2x3x?x8xf32> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_input': requires a static dim 2 of 'dx' when the stride along it is 2 (several sizes give the same output size)}}
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 1>} : tensor<2x4x3x6xf32>, tensor<?x3x3x3xf32> -> tensor<2x3x?x8xf32>
  return %dx : tensor<2x3x?x8xf32>
}

// -----

func.func @input_f8E5M2(%dy: tensor<2x4x6x6xf8E5M2>, %w: tensor<4x3x3x3xf8E5M2>) -> tensor<2x3x8x8xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.conv2d_backward_input': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %dx = rlx.conv2d_backward_input %dy, %w : tensor<2x4x6x6xf8E5M2>, tensor<4x3x3x3xf8E5M2> -> tensor<2x3x8x8xf8E5M2>
  return %dx : tensor<2x3x8x8xf8E5M2>
}
