// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @axis_not_last(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm' op expects 'axis' to be the last axis (1 or -1), got 0}}
  %y = rlx.layer_norm %x, %g, %g {axis = 0 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @axis_negative_not_last(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) -> tensor<2x4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm_backward_input' op expects 'axis' to be the last axis (2 or -1), got -2}}
  %dx = rlx.layer_norm_backward_input %x, %g, %x {axis = -2 : i64, eps = 1.0e-5 : f32} : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %dx : tensor<2x4x8xf32>
}

// -----

func.func @axis_out_of_range(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.rms_norm' op 'axis' 2 is out of range for rank 2}}
  %y = rlx.rms_norm %x, %g, %g {axis = 2 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @beta_axis_not_last(%dy: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'rlx.layer_norm_backward_beta' op expects 'axis' to be the last axis (1 or -1), got 0}}
  %db = rlx.layer_norm_backward_beta %dy {axis = 0 : i64} : tensor<4x8xf32> -> tensor<8xf32>
  return %db : tensor<8xf32>
}

// -----

func.func @rank0(%x: tensor<f32>, %g: tensor<1xf32>) -> tensor<f32> {
  // expected-error@+1 {{'rlx.layer_norm' op expects 'x' to have rank >= 1, got 0}}
  %y = rlx.layer_norm %x, %g, %g {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<f32>, tensor<1xf32>, tensor<1xf32> -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @gamma_length(%x: tensor<4x8xf32>, %g: tensor<7xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm' op expects dim 0 of 'gamma' (7) to equal dim 1 of 'x' (8)}}
  %y = rlx.layer_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<7xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @beta_length(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<9xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.rms_norm_backward_input' op expects dim 0 of 'beta' (9) to equal dim 1 of 'x' (8)}}
  %dx = rlx.rms_norm_backward_input %x, %g, %b, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf32>, tensor<9xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// -----

func.func @gamma_rank(%x: tensor<4x8xf32>, %g: tensor<1x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm_backward_input' op expects 'gamma' to have rank 1, got 2}}
  %dx = rlx.layer_norm_backward_input %x, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<1x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// -----

func.func @dy_shape(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %dy: tensor<3x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm_backward_input' op expects dim 0 of 'x' (4) to equal dim 0 of 'dy' (3)}}
  %dx = rlx.layer_norm_backward_input %x, %g, %dy {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf32>, tensor<3x8xf32> -> tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// -----

func.func @dy_rank(%x: tensor<4x8xf32>, %dy: tensor<32xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'rlx.layer_norm_backward_gamma' op expects 'x' and 'dy' to have the same rank, got 2 and 1}}
  %dg = rlx.layer_norm_backward_gamma %x, %dy {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<32xf32> -> tensor<8xf32>
  return %dg : tensor<8xf32>
}

// -----

func.func @dx_shape(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x9xf32> {
  // expected-error@+1 {{'rlx.rms_norm_backward_input' op expects dim 1 of 'x' (8) to equal dim 1 of 'dx' (9)}}
  %dx = rlx.rms_norm_backward_input %x, %g, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4x8xf32> -> tensor<4x9xf32>
  return %dx : tensor<4x9xf32>
}

// -----

func.func @dgamma_length(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.layer_norm_backward_gamma' op expects dim 0 of 'dgamma' (4) to equal dim 1 of 'x' (8)}}
  %dg = rlx.layer_norm_backward_gamma %x, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4xf32>
  return %dg : tensor<4xf32>
}

// -----

func.func @dbeta_rank(%dy: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm_backward_beta' op expects 'dbeta' to have rank 1, got 2}}
  %db = rlx.layer_norm_backward_beta %dy {axis = -1 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %db : tensor<4x8xf32>
}

// -----

func.func @element_type(%x: tensor<4x8xf32>, %g: tensor<8xf64>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm' op expects 'x' and 'gamma' to have the same element type, got 'f32' and 'f64'}}
  %y = rlx.layer_norm %x, %g, %g {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf64>, tensor<8xf64> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @result_element_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<8xf64> {
  // expected-error@+1 {{'rlx.rms_norm_backward_beta' op expects 'x' and 'dbeta' to have the same element type, got 'f32' and 'f64'}}
  %db = rlx.rms_norm_backward_beta %x, %g, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4x8xf32> -> tensor<8xf64>
  return %db : tensor<8xf64>
}

// -----

func.func @eps_inf(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm' op expects 'eps' to be finite, got INF}}
  %y = rlx.layer_norm %x, %g, %g {axis = -1 : i64, eps = 0x7F800000 : f32} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @eps_nan(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'rlx.rms_norm_backward_gamma' op expects 'eps' to be finite, got nan}}
  %dg = rlx.rms_norm_backward_gamma %x, %x, %x, %x {axis = -1 : i64, eps = 0x7FC00000 : f32} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8xf32>
  return %dg : tensor<8xf32>
}

// -----

func.func @eps_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm' op attribute 'eps' failed to satisfy constraint: 32-bit float attribute}}
  %y = "rlx.layer_norm"(%x, %g, %g) <{axis = -1 : i64, eps = 1.0e-5 : f64}> : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @integer_x(%x: tensor<4x8xi32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.layer_norm' op operand #0 must be ranked tensor of floating-point values}}
  %y = "rlx.layer_norm"(%x, %g, %g) <{axis = -1 : i64, eps = 1.0e-5 : f32}> : (tensor<4x8xi32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @group_not_divisible(%x: tensor<2x6x5x3xf32>, %g: tensor<6xf32>) -> tensor<2x6x5x3xf32> {
  // expected-error@+1 {{'rlx.group_norm' op expects the channel count (dim 1 of 'x', 6) to be divisible by 'num_groups' (4)}}
  %y = rlx.group_norm %x, %g, %g {num_groups = 4 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<6xf32>, tensor<6xf32> -> tensor<2x6x5x3xf32>
  return %y : tensor<2x6x5x3xf32>
}

// -----

func.func @group_zero_groups(%x: tensor<2x6x5x3xf32>) -> tensor<6xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_beta' op expects 'num_groups' to be >= 1, got 0}}
  %db = rlx.group_norm_backward_beta %x, %x {num_groups = 0 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32> -> tensor<6xf32>
  return %db : tensor<6xf32>
}

// -----

func.func @group_rank(%x: tensor<2x6x5xf32>, %g: tensor<6xf32>) -> tensor<2x6x5xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_input' op expects 'x' to have rank 4, got 3}}
  %dx = rlx.group_norm_backward_input %x, %g, %g, %x {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x6x5xf32> -> tensor<2x6x5xf32>
  return %dx : tensor<2x6x5xf32>
}

// -----

func.func @group_gamma_length(%x: tensor<2x6x5x3xf32>, %g: tensor<3xf32>, %b: tensor<6xf32>) -> tensor<2x6x5x3xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_input' op expects dim 0 of 'gamma' (3) to equal dim 1 of 'x' (6)}}
  %dx = rlx.group_norm_backward_input %x, %g, %b, %x {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<3xf32>, tensor<6xf32>, tensor<2x6x5x3xf32> -> tensor<2x6x5x3xf32>
  return %dx : tensor<2x6x5x3xf32>
}

// -----

func.func @group_dy_shape(%x: tensor<2x6x5x3xf32>, %dy: tensor<2x6x5x4xf32>) -> tensor<6xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_gamma' op expects dim 3 of 'x' (3) to equal dim 3 of 'dy' (4)}}
  %dg = rlx.group_norm_backward_gamma %x, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<2x6x5x4xf32> -> tensor<6xf32>
  return %dg : tensor<6xf32>
}

// -----

func.func @group_dgamma_length(%x: tensor<2x6x5x3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_gamma' op expects dim 0 of 'dgamma' (3) to equal dim 1 of 'x' (6)}}
  %dg = rlx.group_norm_backward_gamma %x, %x {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32> -> tensor<3xf32>
  return %dg : tensor<3xf32>
}

// -----

func.func @group_result_shape(%x: tensor<2x6x5x3xf32>, %g: tensor<6xf32>) -> tensor<2x6x5x5xf32> {
  // expected-error@+1 {{'rlx.group_norm' op expects dim 3 of 'x' (3) to equal dim 3 of 'y' (5)}}
  %y = rlx.group_norm %x, %g, %g {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<6xf32>, tensor<6xf32> -> tensor<2x6x5x5xf32>
  return %y : tensor<2x6x5x5xf32>
}

// -----

func.func @group_missing_groups(%x: tensor<2x6x5x3xf32>, %g: tensor<6xf32>) -> tensor<2x6x5x3xf32> {
  // expected-error@+1 {{'rlx.group_norm' op requires attribute 'num_groups'}}
  %y = "rlx.group_norm"(%x, %g, %g) <{eps = 1.0e-5 : f32}> : (tensor<2x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x5x3xf32>
  return %y : tensor<2x6x5x3xf32>
}

// -----

func.func @group_eps(%x: tensor<2x6x5x3xf32>) -> tensor<2x6x5x3xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_input' op expects 'eps' to be finite, got -INF}}
  %dx = rlx.group_norm_backward_input %x, %x, %x, %x {num_groups = 3 : i64, eps = 0xFF800000 : f32} : tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32> -> tensor<2x6x5x3xf32>
  return %dx : tensor<2x6x5x3xf32>
}

// -----

// C is dynamic in x but static (and not divisible) in gamma.
func.func @group_not_divisible_gamma(%x: tensor<2x?x5x3xf32>, %g: tensor<7xf32>) -> tensor<2x?x5x3xf32> {
  // expected-error@+1 {{'rlx.group_norm' op expects the channel count (dim 0 of 'gamma', 7) to be divisible by 'num_groups' (2)}}
  %y = rlx.group_norm %x, %g, %g {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<2x?x5x3xf32>, tensor<7xf32>, tensor<7xf32> -> tensor<2x?x5x3xf32>
  return %y : tensor<2x?x5x3xf32>
}

// -----

func.func @group_not_divisible_dgamma(%x: tensor<2x?x5x3xf32>) -> tensor<9xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_gamma' op expects the channel count (dim 0 of 'dgamma', 9) to be divisible by 'num_groups' (2)}}
  %dg = rlx.group_norm_backward_gamma %x, %x {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<2x?x5x3xf32>, tensor<2x?x5x3xf32> -> tensor<9xf32>
  return %dg : tensor<9xf32>
}

// -----

func.func @gamma_vs_beta_dynamic_x(%x: tensor<?x?xf32>, %g: tensor<5xf32>, %b: tensor<6xf32>) -> tensor<?x?xf32> {
  // expected-error@+1 {{'rlx.layer_norm' op expects dim 0 of 'beta' (6) to equal dim 0 of 'gamma' (5)}}
  %y = rlx.layer_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<?x?xf32>, tensor<5xf32>, tensor<6xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

func.func @dy_vs_dx_dynamic_x(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %dy: tensor<2x6x3x3xf32>) -> tensor<2x4x3x3xf32> {
  // expected-error@+1 {{'rlx.group_norm_backward_input' op expects dim 1 of 'dy' (6) to equal dim 1 of 'dx' (4)}}
  %y = rlx.group_norm_backward_input %x, %g, %g, %dy {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2x6x3x3xf32> -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}
