// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @axis_too_large(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.cumsum' op 'axis' 2 is out of range for rank 2}}
  %y = rlx.cumsum %x {axis = 2 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @axis_too_negative(%dy: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'rlx.cumsum_backward' op 'axis' -3 is out of range for rank 2}}
  %dx = rlx.cumsum_backward %dy {axis = -3 : i64} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// -----

func.func @rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'rlx.cumsum' op 'axis' 0 is out of range for rank 0}}
  %y = rlx.cumsum %x {axis = 0 : i64} : tensor<f32> -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @shape_mismatch(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  // expected-error@+1 {{'rlx.cumsum' op expects dim 1 of 'operand #0' (8) to equal dim 1 of 'result #0' (9)}}
  %y = rlx.cumsum %x {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x9xf32>
  return %y : tensor<4x9xf32>
}

// -----

func.func @rank_mismatch(%dy: tensor<4x8xf32>) -> tensor<32xf32> {
  // expected-error@+1 {{'rlx.cumsum_backward' op expects 'operand #0' and 'result #0' to have the same rank, got 2 and 1}}
  %dx = rlx.cumsum_backward %dy {axis = 0 : i64} : tensor<4x8xf32> -> tensor<32xf32>
  return %dx : tensor<32xf32>
}

// -----

func.func @element_type(%dy: tensor<4x8xf32>) -> tensor<4x8xf64> {
  // expected-error@+1 {{'rlx.cumsum_backward' op expects 'operand #0' and 'result #0' to have the same element type, got 'f32' and 'f64'}}
  %dx = rlx.cumsum_backward %dy {axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xf64>
  return %dx : tensor<4x8xf64>
}

// -----

func.func @integer_input(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'rlx.cumsum' op operand #0 must be ranked tensor of floating-point values}}
  %y = "rlx.cumsum"(%x) <{axis = 0 : i64}> : (tensor<4xi32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

func.func @missing_axis(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.cumsum' op requires attribute 'axis'}}
  %y = "rlx.cumsum"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
