// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @x_rank(%x: tensor<3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'x' to have rank 4, got 3}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @result_rank(%x: tensor<1x3x8x8xf32>) -> tensor<3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'result' to have rank 4, got 3}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<3x4x4xf32>
  return %y : tensor<3x4x4xf32>
}

// -----

func.func @dy_rank(%x: tensor<1x3x8x8xf32>, %dy: tensor<3x4x4xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'dy' to have rank 4, got 3}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32>, tensor<3x4x4xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

func.func @dx_rank(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x4x4xf32>) -> tensor<3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'x' and 'result' to have the same rank, got 4 and 3}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32>, tensor<1x3x4x4xf32> -> tensor<3x8x8xf32>
  return %dx : tensor<3x8x8xf32>
}

// -----

func.func @kernel_missing(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op requires attribute 'kernel_size'}}
  %y = rlx.max_pool2d %x {stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @kernel_length(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'kernel_size' to have 2 values (h, w), got 1}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @kernel_zero(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'kernel_size' values to be >= 1, got 0}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 0>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @stride_length(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'stride' to have 2 values (h, w), got 3}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2, 2>} : tensor<1x3x8x8xf32>, tensor<1x3x4x4xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

func.func @stride_zero(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'stride' values to be >= 1, got 0}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 0, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @padding_length(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'padding' to have 2 values (h, w), got 0}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @padding_negative(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'padding' values to be >= 0, got -1}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, -1>} : tensor<1x3x8x8xf32>, tensor<1x3x4x4xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

// PyTorch: "pad should be at most half of effective kernel size".
func.func @padding_over_half(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x10x6xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'padding' to be at most half of 'kernel_size', got 2 > 3/2 in dimension 0}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, padding = array<i64: 2, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x10x6xf32>
  return %y : tensor<1x3x10x6xf32>
}

// -----

func.func @padding_over_half_w(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x7x9xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'padding' to be at most half of 'kernel_size', got 2 > 2/2 in dimension 1}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, padding = array<i64: 0, 2>} : tensor<1x3x8x8xf32>, tensor<1x3x7x9xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

func.func @result_element_type(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf64> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'x' and 'result' to have the same element type, got 'f32' and 'f64'}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf64>
  return %y : tensor<1x3x4x4xf64>
}

// -----

func.func @dy_element_type(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x4x4xf64>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'x' and 'dy' to have the same element type, got 'f32' and 'f64'}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32>, tensor<1x3x4x4xf64> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

func.func @dx_element_type(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf64> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'x' and 'result' to have the same element type, got 'f32' and 'f64'}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32>, tensor<1x3x4x4xf32> -> tensor<1x3x8x8xf64>
  return %dx : tensor<1x3x8x8xf64>
}

// -----

func.func @integer(%x: tensor<1x3x8x8xi32>) -> tensor<1x3x4x4xi32> {
  // expected-error@+1 {{'rlx.max_pool2d' op operand #0 must be ranked tensor of floating-point values}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xi32> -> tensor<1x3x4x4xi32>
  return %y : tensor<1x3x4x4xi32>
}

// -----

func.func @batch(%x: tensor<2x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects dim 0 of 'result' (1) to equal dim 0 of 'x' (2)}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @channels(%x: tensor<?x3x8x8xf32>, %dy: tensor<?x4x4x4xf32>) -> tensor<?x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects dim 1 of 'dy' (4) to equal dim 1 of 'x' (3)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x8x8xf32>, tensor<?x4x4x4xf32> -> tensor<?x3x8x8xf32>
  return %dx : tensor<?x3x8x8xf32>
}

// -----

func.func @batch_dy(%x: tensor<2x3x8x8xf32>, %dy: tensor<1x3x4x4xf32>) -> tensor<2x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects dim 0 of 'dy' (1) to equal dim 0 of 'x' (2)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x3x8x8xf32>, tensor<1x3x4x4xf32> -> tensor<2x3x8x8xf32>
  return %dx : tensor<2x3x8x8xf32>
}

// -----

// (8 + 2 - 3) / 2 + 1 = 4
func.func @height(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x5x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects dim 2 of 'result' (5) to equal the pooled height (4)}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x5x4xf32>
  return %y : tensor<1x3x5x4xf32>
}

// -----

// (9 - 2) / 3 + 1 = 3
func.func @width(%x: tensor<1x3x8x9xf32>, %dy: tensor<1x3x7x4xf32>) -> tensor<1x3x8x9xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects dim 3 of 'dy' (4) to equal the pooled width (3)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 1, 3>} : tensor<1x3x8x9xf32>, tensor<1x3x7x4xf32> -> tensor<1x3x8x9xf32>
  return %dx : tensor<1x3x8x9xf32>
}

// -----

func.func @window_too_large(%x: tensor<1x3x2x8xf32>) -> tensor<1x3x1x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects dim 2 of 'x' (2) plus twice the padding (0) to hold at least one window of 3}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 1>} : tensor<1x3x2x8xf32> -> tensor<1x3x1x8xf32>
  return %y : tensor<1x3x1x8xf32>
}

// -----

func.func @empty_width(%x: tensor<1x3x8x0xf32>) -> tensor<1x3x7x1xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects dim 3 of 'x' to be non-zero}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, padding = array<i64: 0, 1>} : tensor<1x3x8x0xf32> -> tensor<1x3x7x1xf32>
  return %y : tensor<1x3x7x1xf32>
}

// -----

func.func @dx_shape(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x4x4xf32>) -> tensor<1x3x8x9xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects dim 3 of 'x' (8) to equal dim 3 of 'result' (9)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x8x8xf32>, tensor<1x3x4x4xf32> -> tensor<1x3x8x9xf32>
  return %dx : tensor<1x3x8x9xf32>
}

// -----

// kernel_size near INT64_MAX with padding up to half of it: H + 2p would wrap.
func.func @padded_size_overflow(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects dim 2 of 'x' (8) plus twice the padding (4611686018427387903) and the dilated window to fit in 64 bits}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 9223372036854775807, 9223372036854775807>, padding = array<i64: 4611686018427387903, 4611686018427387903>} : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return %y : tensor<1x3x8x8xf32>
}

// -----

func.func @dy_vs_result_batch(%x: tensor<?x?x8x8xf32>, %dy: tensor<1x3x4x4xf32>) -> tensor<2x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects dim 0 of 'dy' (1) to equal dim 0 of 'result' (2)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x?x8x8xf32>, tensor<1x3x4x4xf32> -> tensor<2x3x8x8xf32>
  return %dx : tensor<2x3x8x8xf32>
}

// -----

func.func @dilation_zero(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects 'dilation' values to be >= 1, got 0}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, dilation = array<i64: 0, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return %y : tensor<1x3x7x7xf32>
}

// -----

func.func @dilation_length(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x3x7x7xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects 'dilation' to have 2 values (h, w), got 1}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, dilation = array<i64: 1>} : tensor<1x3x8x8xf32>, tensor<1x3x7x7xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

// The dilated window (2*(3-1)+1 = 5) does not fit in H = 4.
func.func @dilated_window_too_large(%x: tensor<1x3x4x8xf32>) -> tensor<1x3x1x6xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects dim 2 of 'x' (4) plus twice the padding (0) to hold at least one window of 3 dilated by 2}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, dilation = array<i64: 2, 1>} : tensor<1x3x4x8xf32> -> tensor<1x3x1x6xf32>
  return %y : tensor<1x3x1x6xf32>
}

// -----

// Floor mode: (7 - 2)/2 + 1 = 3; ceil mode would give 4.
func.func @floor_mode_size(%x: tensor<1x3x7x7xf32>) -> tensor<1x3x4x3xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op expects dim 2 of 'result' (4) to equal the pooled height (3)}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x3x7x7xf32> -> tensor<1x3x4x3xf32>
  return %y : tensor<1x3x4x3xf32>
}

// -----

// Ceil mode, H = 5, k = 2, s = 2, p = 1: ceil((5 + 2 - 2)/2) + 1 = 4, but the
// fourth window would start at 6 >= H + p = 6 (inside the right padding), so
// PyTorch drops it: 3.
func.func @ceil_mode_last_window(%x: tensor<1x3x5x5xf32>, %dy: tensor<1x3x4x3xf32>) -> tensor<1x3x5x5xf32> {
  // expected-error@+1 {{'rlx.max_pool2d_backward' op expects dim 2 of 'dy' (4) to equal the pooled height (3)}}
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : tensor<1x3x5x5xf32>, tensor<1x3x4x3xf32> -> tensor<1x3x5x5xf32>
  return %dx : tensor<1x3x5x5xf32>
}

// -----

func.func @ceil_mode_type(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'rlx.max_pool2d' op attribute 'ceil_mode' failed to satisfy constraint: bool attribute}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, ceil_mode = 1 : i64} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}
