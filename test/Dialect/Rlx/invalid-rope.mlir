// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @head_dim(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'head_dim' to be positive, got 0}}
  %y = rlx.rope %x, %c, %c {head_dim = 0 : i64, n_rot = 0 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @n_rot_large(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'n_rot' to be in [0, head_dim = 4], got 6}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 6 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @n_rot_negative(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope_backward' op expects 'n_rot' to be in [0, head_dim = 4], got -2}}
  %y = rlx.rope_backward %x, %c, %c {head_dim = 4 : i64, n_rot = -2 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @n_rot_odd(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'n_rot' to be even, got 3}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 3 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @x_rank(%x: tensor<1x2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<1x2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'x' to have rank 2 or 3, got 4}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<1x2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<1x2x3x8xf32>
  return %y : tensor<1x2x3x8xf32>
}

// -----

func.func @dy_rank(%x: tensor<24xf32>, %c: tensor<3x2xf32>) -> tensor<24xf32> {
  // expected-error@+1 {{'rlx.rope_backward' op expects 'dy' to have rank 2 or 3, got 1}}
  %y = rlx.rope_backward %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<24xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<24xf32>
  return %y : tensor<24xf32>
}

// -----

func.func @cos_rank(%x: tensor<2x3x8xf32>, %c: tensor<6xf32>, %s: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'cos' to have rank 2, got 1}}
  %y = rlx.rope %x, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf32>, tensor<6xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @sin_rank(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>, %s: tensor<1x3x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'sin' to have rank 2, got 3}}
  %y = rlx.rope %x, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<1x3x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @heads_divisible(%x: tensor<2x3x10xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x10xf32> {
  // expected-error@+1 {{'rlx.rope' op expects the last dim of 'x' (10) to be a multiple of 'head_dim' (4)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x10xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x10xf32>
  return %y : tensor<2x3x10xf32>
}

// -----

func.func @cos_seq(%x: tensor<2x3x8xf32>, %c: tensor<4x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects dim 0 of 'cos' (4) to equal dim 1 of 'x' (3)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf32>, tensor<4x2xf32>, tensor<4x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @cos_seq_rank2(%x: tensor<3x8xf32>, %c: tensor<4x2xf32>) -> tensor<3x8xf32> {
  // expected-error@+1 {{'rlx.rope_backward' op expects dim 0 of 'cos' (4) to equal dim 0 of 'dy' (3)}}
  %y = rlx.rope_backward %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<3x8xf32>, tensor<4x2xf32>, tensor<4x2xf32> -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}

// -----

func.func @cos_half(%x: tensor<2x3x8xf32>, %c: tensor<3x4xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects dim 1 of 'cos' (4) to equal head_dim / 2 (2)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 2 : i64} : tensor<2x3x8xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @sin_shape(%x: tensor<2x?x8xf32>, %c: tensor<?x2xf32>, %s: tensor<3x3xf32>) -> tensor<2x?x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects dim 1 of 'sin' (3) to equal dim 1 of 'cos' (2)}}
  %y = rlx.rope %x, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x?x8xf32>, tensor<?x2xf32>, tensor<3x3xf32> -> tensor<2x?x8xf32>
  return %y : tensor<2x?x8xf32>
}

// -----

func.func @result_shape(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x4xf32> {
  // expected-error@+1 {{'rlx.rope' op expects dim 2 of 'result' (4) to equal dim 2 of 'x' (8)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

func.func @cos_type(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf64>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'cos' and 'x' to have the same element type, got 'f64' and 'f32'}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf32>, tensor<3x2xf64>, tensor<3x2xf64> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @sin_type(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>, %s: tensor<3x2xf64>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects 'sin' and 'x' to have the same element type, got 'f64' and 'f32'}}
  %y = rlx.rope %x, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf64> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

func.func @result_type(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x8xf64> {
  // expected-error@+1 {{'rlx.rope_backward' op expects 'result' and 'dy' to have the same element type, got 'f64' and 'f32'}}
  %y = rlx.rope_backward %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf64>
  return %y : tensor<2x3x8xf64>
}

// -----

func.func @missing_n_rot(%x: tensor<2x3x8xf32>, %c: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  // expected-error@+1 {{'rlx.rope' op requires attribute 'n_rot'}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

// The result is checked against cos and head_dim even when x is dynamic.
func.func @result_vs_cos_dynamic_x(%x: tensor<?x?xf32>, %c: tensor<3x2xf32>) -> tensor<5x8xf32> {
  // expected-error@+1 {{'rlx.rope' op expects dim 0 of 'cos' (3) to equal dim 0 of 'result' (5)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<?x?xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<5x8xf32>
  return %y : tensor<5x8xf32>
}

// -----

func.func @result_width_dynamic_x(%x: tensor<?x?xf32>, %c: tensor<?x2xf32>) -> tensor<?x6xf32> {
  // expected-error@+1 {{'rlx.rope' op expects the last dim of 'result' (6) to be a multiple of 'head_dim' (4)}}
  %y = rlx.rope %x, %c, %c {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<?x?xf32>, tensor<?x2xf32>, tensor<?x2xf32> -> tensor<?x6xf32>
  return %y : tensor<?x6xf32>
}
