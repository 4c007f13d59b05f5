// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @bits(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.fake_quantize' op expects 'bits' to be 2, 4 or 8, got 3}}
  %y = rlx.fake_quantize %x {bits = 3 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

func.func @bits_backward(%x: tensor<4x5xf32>, %dy: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.fake_quantize_backward' op expects 'bits' to be 2, 4 or 8, got 16}}
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 16 : i64, ste = #rlx.ste<tanh>} : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

func.func @missing_bits(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.fake_quantize' op requires attribute 'bits'}}
  %y = rlx.fake_quantize %x : tensor<4x5xf32> -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

func.func @axis(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.fake_quantize' op 'axis' 2 is out of range for rank 2}}
  %y = rlx.fake_quantize %x {axis = 2 : i64, bits = 8 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

func.func @axis_backward(%x: tensor<4x5xf32>, %dy: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.fake_quantize_backward' op 'axis' -3 is out of range for rank 2}}
  %dx = rlx.fake_quantize_backward %x, %dy {axis = -3 : i64, bits = 8 : i64} : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

func.func @shape(%x: tensor<4x5xf32>) -> tensor<4x6xf32> {
  // expected-error@+1 {{'rlx.fake_quantize' op expects dim 1 of 'operand #0' (5) to equal dim 1 of 'result #0' (6)}}
  %y = rlx.fake_quantize %x {bits = 8 : i64} : tensor<4x5xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

func.func @dy_shape(%x: tensor<4x5xf32>, %dy: tensor<5x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.fake_quantize_backward' op expects dim 0 of 'operand #0' (4) to equal dim 0 of 'operand #1' (5)}}
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 8 : i64} : tensor<4x5xf32>, tensor<5x5xf32> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

func.func @dy_element_type(%x: tensor<4x5xf32>, %dy: tensor<4x5xf64>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.fake_quantize_backward' op expects 'operand #0' and 'operand #1' to have the same element type, got 'f32' and 'f64'}}
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 8 : i64} : tensor<4x5xf32>, tensor<4x5xf64> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

func.func @result_rank(%x: tensor<4x5xf32>, %dy: tensor<4x5xf32>) -> tensor<20xf32> {
  // expected-error@+1 {{'rlx.fake_quantize_backward' op expects 'operand #0' and 'result #0' to have the same rank, got 2 and 1}}
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 8 : i64} : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<20xf32>
  return %dx : tensor<20xf32>
}

// -----

func.func @ste(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{expected ::mlir::rlx::Ste to be one of: identity, clipped_identity, tanh, hard_tanh}}
  // expected-error@+1 {{failed to parse Rlx_SteAttr parameter 'value'}}
  %y = rlx.fake_quantize %x {bits = 8 : i64, ste = #rlx.ste<sign>} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'rlx.fake_quantize' op operand #0 must be ranked tensor of floating-point values}}
  %y = rlx.fake_quantize %x {bits = 8 : i64} : tensor<4xi32> -> tensor<4xi32>
  return %y : tensor<4xi32>
}
