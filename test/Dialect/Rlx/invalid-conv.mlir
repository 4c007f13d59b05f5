// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects 'x' to have rank 4, got 3}}
  %y = rlx.conv2d %x, %w : tensor<3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @weight_rank(%dy: tensor<1x4x6x6xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_input' op expects 'w' to have rank 4, got 3}}
  %dx = rlx.conv2d_backward_input %dy, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

func.func @element_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf64>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects 'x' and 'w' to have the same element type, got 'f32' and 'f64'}}
  %y = rlx.conv2d %x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf64> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @result_element_type(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x4x6x6xf32>) -> tensor<4x3x3x3xf64> {
  // expected-error@+1 {{'rlx.conv2d_backward_weight' op expects 'x' and 'dw' to have the same element type, got 'f32' and 'f64'}}
  %dw = rlx.conv2d_backward_weight %x, %dy : tensor<1x3x8x8xf32>, tensor<1x4x6x6xf32> -> tensor<4x3x3x3xf64>
  return %dw : tensor<4x3x3x3xf64>
}

// -----

func.func @stride_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects 'stride' to have 2 values (h, w), got 1}}
  %y = rlx.conv2d %x, %w {stride = array<i64: 1>} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects 'stride' values to be >= 1, got 0}}
  %y = rlx.conv2d %x, %w {stride = array<i64: 1, 0>} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @padding_negative(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x4x6x6xf32>) -> tensor<4x3x3x3xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_weight' op expects 'padding' values to be >= 0, got -1}}
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: -1, 0>} : tensor<1x3x8x8xf32>, tensor<1x4x6x6xf32> -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}

// -----

func.func @padding_length(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x4x6x6xf32>) -> tensor<4x3x3x3xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_weight' op expects 'padding' to have 2 values (h, w), got 3}}
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 0, 0, 0>} : tensor<1x3x8x8xf32>, tensor<1x4x6x6xf32> -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}

// -----

func.func @dilation_zero(%dy: tensor<1x4x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_input' op expects 'dilation' values to be >= 1, got 0}}
  %dx = rlx.conv2d_backward_input %dy, %w {dilation = array<i64: 0, 1>} : tensor<1x4x6x6xf32>, tensor<4x3x3x3xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

func.func @groups_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects 'groups' to be >= 1, got 0}}
  %y = rlx.conv2d %x, %w {groups = 0 : i64} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @ci_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects Ci (dim 1 of 'x', 3) to be divisible by 'groups' (2)}}
  %y = rlx.conv2d %x, %w {groups = 2 : i64} : tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @co_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects Co (dim 0 of 'w', 3) to be divisible by 'groups' (2)}}
  %y = rlx.conv2d %x, %w {groups = 2 : i64} : tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x6x6xf32>
  return %y : tensor<1x3x6x6xf32>
}

// -----

func.func @co_groups_dy(%x: tensor<1x4x8x8xf32>, %dy: tensor<1x3x6x6xf32>) -> tensor<?x2x3x3xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_weight' op expects Co (dim 1 of 'dy', 3) to be divisible by 'groups' (2)}}
  %dw = rlx.conv2d_backward_weight %x, %dy {groups = 2 : i64} : tensor<1x4x8x8xf32>, tensor<1x3x6x6xf32> -> tensor<?x2x3x3xf32>
  return %dw : tensor<?x2x3x3xf32>
}

// -----

func.func @weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects dim 1 of 'w' (4) to equal Ci / groups (2)}}
  %y = rlx.conv2d %x, %w {groups = 2 : i64} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @batch(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<3x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects dim 0 of 'y' (3) to equal dim 0 of 'x' (2)}}
  %y = rlx.conv2d %x, %w : tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<3x4x6x6xf32>
  return %y : tensor<3x4x6x6xf32>
}

// -----

func.func @out_channels(%dy: tensor<1x5x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_input' op expects dim 1 of 'dy' (5) to equal dim 0 of 'w' (4)}}
  %dx = rlx.conv2d_backward_input %dy, %w : tensor<1x5x6x6xf32>, tensor<4x3x3x3xf32> -> tensor<1x3x8x8xf32>
  return %dx : tensor<1x3x8x8xf32>
}

// -----

func.func @output_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x5xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects dim 3 of 'y' (5) to equal the output width floor((H + 2p - d(k-1) - 1) / s) + 1 of 'x' (6)}}
  %y = rlx.conv2d %x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x5xf32>
  return %y : tensor<1x4x6x5xf32>
}

// -----

// H = 9 with stride 2, k = 3, p = 1 gives Ho = 5, not dy's 4.
func.func @backward_input_size(%dy: tensor<1x4x4x4xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x3x9x8xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_input' op expects dim 2 of 'dy' (4) to equal the output height floor((H + 2p - d(k-1) - 1) / s) + 1 of 'dx' (5)}}
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x4x4x4xf32>, tensor<4x3x3x3xf32> -> tensor<1x3x9x8xf32>
  return %dx : tensor<1x3x9x8xf32>
}

// -----

func.func @backward_weight_kernel(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x4x6x6xf32>) -> tensor<4x3x5x3xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_weight' op expects dim 2 of 'dy' (6) to equal the output height floor((H + 2p - d(k-1) - 1) / s) + 1 of 'x' (4)}}
  %dw = rlx.conv2d_backward_weight %x, %dy : tensor<1x3x8x8xf32>, tensor<1x4x6x6xf32> -> tensor<4x3x5x3xf32>
  return %dw : tensor<4x3x5x3xf32>
}

// -----

func.func @no_window(%x: tensor<1x3x2x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x1x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects the padded input height (2 + 2*0) to hold one dilated kernel window (3)}}
  %y = rlx.conv2d %x, %w : tensor<1x3x2x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x1x6xf32>
  return %y : tensor<1x4x1x6xf32>
}

// -----

func.func @empty_kernel(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x0x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects the kernel height (dim 2 of 'w') to be >= 1, got 0}}
  %y = rlx.conv2d %x, %w : tensor<1x3x8x8xf32>, tensor<4x3x0x3xf32> -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

// A huge dilation must not wrap d*(k-1)+1 (it used to wrap to a window of 1,
// pass verification and produce an invalid linalg convolution).
func.func @dilation_overflow(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x5x5xf32>) -> tensor<1x3x5x5xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects the padded input height (x dim 2 + 2*0) and the dilated kernel window (4611686018427387904*(5-1)+1) to fit in 64 bits}}
  %y = rlx.conv2d %x, %w {dilation = array<i64: 4611686018427387904, 1>} : tensor<1x2x5x5xf32>, tensor<3x2x5x5xf32> -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// -----

// Checked even when the spatial dims are dynamic.
func.func @dilation_overflow_dynamic(%dy: tensor<1x3x?x?xf32>, %w: tensor<3x2x5x5xf32>) -> tensor<1x2x?x?xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_input' op expects the padded input height (dx dim 2 + 2*0) and the dilated kernel window (4611686018427387904*(5-1)+1) to fit in 64 bits}}
  %dx = rlx.conv2d_backward_input %dy, %w {dilation = array<i64: 4611686018427387904, 1>} : tensor<1x3x?x?xf32>, tensor<3x2x5x5xf32> -> tensor<1x2x?x?xf32>
  return %dx : tensor<1x2x?x?xf32>
}

// -----

func.func @padding_overflow(%x: tensor<1x2x5x5xf32>, %dy: tensor<1x3x3x3xf32>) -> tensor<3x2x3x3xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_weight' op expects the padded input width (x dim 3 + 2*4611686018427387904) and the dilated kernel window (1*(3-1)+1) to fit in 64 bits}}
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 0, 4611686018427387904>} : tensor<1x2x5x5xf32>, tensor<1x3x3x3xf32> -> tensor<3x2x3x3xf32>
  return %dw : tensor<3x2x3x3xf32>
}

// -----

func.func @dilation_length(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error@+1 {{'rlx.conv2d' op expects 'dilation' to have 2 values (h, w), got 3}}
  %y = rlx.conv2d %x, %w {dilation = array<i64: 1, 1, 1>} : tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x3x3xf32>
  return %y : tensor<1x3x3x3xf32>
}

// -----

func.func @bias_channels(%dy: tensor<2x16x4x4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_bias' op expects dim 0 of 'db' (8) to equal dim 1 of 'dy' (16)}}
  %db = rlx.conv2d_backward_bias %dy : tensor<2x16x4x4xf32> -> tensor<8xf32>
  return %db : tensor<8xf32>
}

// -----

func.func @bias_dy_rank(%dy: tensor<2x16x4xf32>) -> tensor<16xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_bias' op expects 'dy' to have rank 4, got 3}}
  %db = rlx.conv2d_backward_bias %dy : tensor<2x16x4xf32> -> tensor<16xf32>
  return %db : tensor<16xf32>
}

// -----

func.func @bias_result_rank(%dy: tensor<2x16x4x4xf32>) -> tensor<1x16xf32> {
  // expected-error@+1 {{'rlx.conv2d_backward_bias' op expects 'db' to have rank 1, got 2}}
  %db = rlx.conv2d_backward_bias %dy : tensor<2x16x4x4xf32> -> tensor<1x16xf32>
  return %db : tensor<1x16xf32>
}

// -----

func.func @bias_element_type(%dy: tensor<2x16x4x4xf32>) -> tensor<16xf64> {
  // expected-error@+1 {{'rlx.conv2d_backward_bias' op expects 'dy' and 'db' to have the same element type, got 'f32' and 'f64'}}
  %db = rlx.conv2d_backward_bias %dy : tensor<2x16x4x4xf32> -> tensor<16xf64>
  return %db : tensor<16xf64>
}
