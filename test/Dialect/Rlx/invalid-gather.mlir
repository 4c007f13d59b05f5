// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @axis_out_of_range(%t: tensor<10x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'rlx.gather' op 'axis' 2 is out of range for rank 2}}
  %y = rlx.gather %t, %i {axis = 2 : i64} : tensor<10x4xf32>, tensor<3xi32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

func.func @rank0_table(%t: tensor<f32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error@+1 {{'rlx.gather' op 'axis' 0 is out of range for rank 0}}
  %y = rlx.gather %t, %i {axis = 0 : i64} : tensor<f32>, tensor<3xi32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

func.func @result_rank(%t: tensor<10x4xf32>, %i: tensor<2x3xi32>) -> tensor<6x4xf32> {
  // expected-error@+1 {{'rlx.gather' op expects 'result' to have rank 3 (rank of 'table' - 1 + rank of 'indices'), got 2}}
  %y = rlx.gather %t, %i {axis = 0 : i64} : tensor<10x4xf32>, tensor<2x3xi32> -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

func.func @result_index_dim(%t: tensor<10x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x5x4xf32> {
  // expected-error@+1 {{'rlx.gather' op expects dim 1 of 'result' (5) to equal dim 1 of 'indices' (3)}}
  %y = rlx.gather %t, %i {axis = 0 : i64} : tensor<10x4xf32>, tensor<2x3xi32> -> tensor<2x5x4xf32>
  return %y : tensor<2x5x4xf32>
}

// -----

func.func @result_leading_dim(%t: tensor<2x10x4xf32>, %i: tensor<3xi32>) -> tensor<5x3x4xf32> {
  // expected-error@+1 {{'rlx.gather' op expects dim 0 of 'result' (5) to equal dim 0 of 'table' (2)}}
  %y = rlx.gather %t, %i {axis = 1 : i64} : tensor<2x10x4xf32>, tensor<3xi32> -> tensor<5x3x4xf32>
  return %y : tensor<5x3x4xf32>
}

// -----

func.func @result_trailing_dim(%t: tensor<2x10x4xf32>, %i: tensor<3xi32>) -> tensor<2x3x7xf32> {
  // expected-error@+1 {{'rlx.gather' op expects dim 2 of 'result' (7) to equal dim 2 of 'table' (4)}}
  %y = rlx.gather %t, %i {axis = -2 : i64} : tensor<2x10x4xf32>, tensor<3xi32> -> tensor<2x3x7xf32>
  return %y : tensor<2x3x7xf32>
}

// -----

func.func @result_element_type(%t: tensor<10x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf64> {
  // expected-error@+1 {{'rlx.gather' op expects 'table' and 'result' to have the same element type, got 'f32' and 'f64'}}
  %y = rlx.gather %t, %i {axis = 0 : i64} : tensor<10x4xf32>, tensor<3xi32> -> tensor<3x4xf64>
  return %y : tensor<3x4xf64>
}

// -----

func.func @index_element_type(%t: tensor<10x4xf32>, %i: tensor<3xi16>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'rlx.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %y = rlx.gather %t, %i {axis = 0 : i64} : tensor<10x4xf32>, tensor<3xi16> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

func.func @float_indices(%t: tensor<10x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'rlx.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %y = "rlx.gather"(%t, %i) <{axis = 0 : i64}> : (tensor<10x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

func.func @integer_table(%t: tensor<10x4xi32>, %i: tensor<3xi32>) -> tensor<3x4xi32> {
  // expected-error@+1 {{'rlx.gather' op operand #0 must be ranked tensor of floating-point values}}
  %y = "rlx.gather"(%t, %i) <{axis = 0 : i64}> : (tensor<10x4xi32>, tensor<3xi32>) -> tensor<3x4xi32>
  return %y : tensor<3x4xi32>
}

// -----

func.func @backward_axis(%dy: tensor<3x4xf32>, %i: tensor<3xi32>) -> tensor<10x4xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op 'axis' -3 is out of range for rank 2}}
  %dt = rlx.gather_backward %dy, %i {axis = -3 : i64} : tensor<3x4xf32>, tensor<3xi32> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}

// -----

func.func @backward_dy_rank(%dy: tensor<3x4xf32>, %i: tensor<3x2xi32>) -> tensor<10x4xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op expects 'dy' to have rank 3 (rank of 'result' - 1 + rank of 'indices'), got 2}}
  %dt = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<3x4xf32>, tensor<3x2xi32> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}

// -----

func.func @backward_dy_index_dim(%dy: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<10x4xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op expects dim 0 of 'dy' (5) to equal dim 0 of 'indices' (3)}}
  %dt = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<5x4xf32>, tensor<3xi64> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}

// -----

func.func @backward_dy_row_dim(%dy: tensor<3x5xf32>, %i: tensor<3xi64>) -> tensor<10x4xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op expects dim 1 of 'dy' (5) to equal dim 1 of 'result' (4)}}
  %dt = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<3x5xf32>, tensor<3xi64> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}

// -----

func.func @backward_dy_leading_dim(%dy: tensor<6x3xf32>, %i: tensor<3xi64>) -> tensor<2x10xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op expects dim 0 of 'dy' (6) to equal dim 0 of 'result' (2)}}
  %dt = rlx.gather_backward %dy, %i {axis = 1 : i64} : tensor<6x3xf32>, tensor<3xi64> -> tensor<2x10xf32>
  return %dt : tensor<2x10xf32>
}

// -----

func.func @backward_element_type(%dy: tensor<3x4xf64>, %i: tensor<3xi32>) -> tensor<10x4xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op expects 'result' and 'dy' to have the same element type, got 'f32' and 'f64'}}
  %dt = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<3x4xf64>, tensor<3xi32> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}

// -----

func.func @backward_index_type(%dy: tensor<3x4xf32>, %i: tensor<3xindex>) -> tensor<10x4xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %dt = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<3x4xf32>, tensor<3xindex> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}

// -----

func.func @padding_idx_too_large(%dy: tensor<6x4xf32>, %ids: tensor<6xi32>) -> tensor<10x4xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op expects 'padding_idx' (10) to lie in [-10, 10), the rows of dim 0 of the result}}
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64, padding_idx = 10 : i64} : tensor<6x4xf32>, tensor<6xi32> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}

// -----

func.func @padding_idx_too_negative(%dy: tensor<2x6xf32>, %ids: tensor<6xi32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'rlx.gather_backward' op expects 'padding_idx' (-6) to lie in [-5, 5), the rows of dim 1 of the result}}
  %dt = rlx.gather_backward %dy, %ids {axis = -1 : i64, padding_idx = -6 : i64} : tensor<2x6xf32>, tensor<6xi32> -> tensor<2x5xf32>
  return %dt : tensor<2x5xf32>
}

// -----

func.func @scale_grad_by_freq_type(%dy: tensor<6x4xf32>, %ids: tensor<6xi32>) -> tensor<10x4xf32> {
  // expected-error@+1 {{invalid properties {axis = 0 : i64, scale_grad_by_freq = true} for op rlx.gather_backward: Invalid attribute `scale_grad_by_freq` in property conversion: true}}
  %dt = "rlx.gather_backward"(%dy, %ids) <{axis = 0 : i64, scale_grad_by_freq = true}> : (tensor<6x4xf32>, tensor<6xi32>) -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}
