// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @softmax_axis(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax' op 'axis' 2 is out of range for rank 2}}
  %y = rlx.softmax %x {axis = 2 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

func.func @softmax_negative_axis(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax' op 'axis' -3 is out of range for rank 2}}
  %y = rlx.softmax %x {axis = -3 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

func.func @softmax_shape(%x: tensor<4x5xf32>) -> tensor<4x6xf32> {
  // expected-error@+1 {{'rlx.softmax' op expects dim 1 of 'operand #0' (5) to equal dim 1 of 'result #0' (6)}}
  %y = rlx.softmax %x : tensor<4x5xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

func.func @softmax_element_type(%x: tensor<4x5xf32>) -> tensor<4x5xf64> {
  // expected-error@+1 {{'rlx.softmax' op expects 'operand #0' and 'result #0' to have the same element type, got 'f32' and 'f64'}}
  %y = rlx.softmax %x : tensor<4x5xf32> -> tensor<4x5xf64>
  return %y : tensor<4x5xf64>
}

// -----

func.func @softmax_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'rlx.softmax' op 'axis' -1 is out of range for rank 0}}
  %y = rlx.softmax %x : tensor<f32> -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @ce_logits_rank(%l: tensor<4x5x2xf32>, %t: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy' op expects 'logits' to have rank 2, got 3}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<4x5x2xf32>, tensor<4xi64> -> tensor<4xf32>
  return %loss : tensor<4xf32>
}

// -----

func.func @ce_labels_rank(%l: tensor<4x5xf32>, %t: tensor<4x1xi64>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy' op expects 'labels' to have rank 1, got 2}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<4x5xf32>, tensor<4x1xi64> -> tensor<4xf32>
  return %loss : tensor<4xf32>
}

// -----

func.func @ce_labels_n(%l: tensor<4x5xf32>, %t: tensor<3xi64>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy' op expects dim 0 of 'labels' (3) to equal dim 0 of 'logits' (4)}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<4x5xf32>, tensor<3xi64> -> tensor<4xf32>
  return %loss : tensor<4xf32>
}

// -----

func.func @ce_labels_type(%l: tensor<4x5xf32>, %t: tensor<4xi16>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<4x5xf32>, tensor<4xi16> -> tensor<4xf32>
  return %loss : tensor<4xf32>
}

// -----

func.func @ce_loss_rank(%l: tensor<4x5xf32>, %t: tensor<4xi64>) -> tensor<4x1xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy' op expects 'loss' to have rank 1, got 2}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<4x5xf32>, tensor<4xi64> -> tensor<4x1xf32>
  return %loss : tensor<4x1xf32>
}

// -----

func.func @ce_loss_n(%l: tensor<4x5xf32>, %t: tensor<?xi64>) -> tensor<5xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy' op expects dim 0 of 'loss' (5) to equal dim 0 of 'logits' (4)}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<4x5xf32>, tensor<?xi64> -> tensor<5xf32>
  return %loss : tensor<5xf32>
}

// -----

func.func @ce_loss_type(%l: tensor<4x5xf32>, %t: tensor<4xi64>) -> tensor<4xf64> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy' op expects 'loss' and 'logits' to have the same element type, got 'f64' and 'f32'}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<4x5xf32>, tensor<4xi64> -> tensor<4xf64>
  return %loss : tensor<4xf64>
}

// -----

func.func @ce_backward_logits_rank(%l: tensor<20xf32>, %t: tensor<4xi32>, %d: tensor<4xf32>) -> tensor<20xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects 'logits' to have rank 2, got 1}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<20xf32>, tensor<4xi32>, tensor<4xf32> -> tensor<20xf32>
  return %dl : tensor<20xf32>
}

// -----

func.func @ce_backward_labels_n(%l: tensor<4x5xf32>, %t: tensor<5xi32>, %d: tensor<4xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects dim 0 of 'labels' (5) to equal dim 0 of 'logits' (4)}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf32>, tensor<5xi32>, tensor<4xf32> -> tensor<4x5xf32>
  return %dl : tensor<4x5xf32>
}

// -----

func.func @ce_backward_d_loss_rank(%l: tensor<4x5xf32>, %t: tensor<4xi32>, %d: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects 'd_loss' to have rank 1, got 2}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf32>, tensor<4xi32>, tensor<4x5xf32> -> tensor<4x5xf32>
  return %dl : tensor<4x5xf32>
}

// -----

func.func @ce_backward_d_loss_n(%l: tensor<?x5xf32>, %t: tensor<4xi32>, %d: tensor<3xf32>) -> tensor<?x5xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects dim 0 of 'd_loss' (3) to equal dim 0 of 'labels' (4)}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<?x5xf32>, tensor<4xi32>, tensor<3xf32> -> tensor<?x5xf32>
  return %dl : tensor<?x5xf32>
}

// -----

func.func @ce_backward_d_loss_n_static(%l: tensor<4x5xf32>, %t: tensor<?xi32>, %d: tensor<3xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects dim 0 of 'd_loss' (3) to equal dim 0 of 'logits' (4)}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf32>, tensor<?xi32>, tensor<3xf32> -> tensor<4x5xf32>
  return %dl : tensor<4x5xf32>
}

// -----

func.func @ce_backward_d_loss_type(%l: tensor<4x5xf32>, %t: tensor<4xi32>, %d: tensor<4xf64>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects 'd_loss' and 'logits' to have the same element type, got 'f64' and 'f32'}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf32>, tensor<4xi32>, tensor<4xf64> -> tensor<4x5xf32>
  return %dl : tensor<4x5xf32>
}

// -----

func.func @ce_backward_result_shape(%l: tensor<4x5xf32>, %t: tensor<4xi32>, %d: tensor<4xf32>) -> tensor<4x6xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects dim 1 of 'dlogits' (6) to equal dim 1 of 'logits' (5)}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf32>, tensor<4xi32>, tensor<4xf32> -> tensor<4x6xf32>
  return %dl : tensor<4x6xf32>
}

// -----

func.func @ce_backward_result_rank(%l: tensor<4x5xf32>, %t: tensor<4xi32>, %d: tensor<4xf32>) -> tensor<20xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects 'dlogits' and 'logits' to have the same rank, got 1 and 2}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf32>, tensor<4xi32>, tensor<4xf32> -> tensor<20xf32>
  return %dl : tensor<20xf32>
}

// -----

func.func @ce_backward_result_type(%l: tensor<4x5xf32>, %t: tensor<4xi32>, %d: tensor<4xf32>) -> tensor<4x5xf64> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects 'dlogits' and 'logits' to have the same element type, got 'f64' and 'f32'}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4x5xf32>, tensor<4xi32>, tensor<4xf32> -> tensor<4x5xf64>
  return %dl : tensor<4x5xf64>
}

// -----

func.func @ce_backward_rows_vs_labels(%l: tensor<?x3xf32>, %t: tensor<2xi32>, %d: tensor<?xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'rlx.softmax_cross_entropy_backward' op expects dim 0 of 'dlogits' (4) to equal dim 0 of 'labels' (2)}}
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<?x3xf32>, tensor<2xi32>, tensor<?xf32> -> tensor<4x3xf32>
  return %dl : tensor<4x3xf32>
}

// -----

func.func @log_softmax_axis(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.log_softmax' op 'axis' -3 is out of range for rank 2}}
  %y = rlx.log_softmax %x {axis = -3 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

func.func @log_softmax_shape(%x: tensor<4x5xf32>) -> tensor<5x5xf32> {
  // expected-error@+1 {{'rlx.log_softmax' op expects dim 0 of 'operand #0' (4) to equal dim 0 of 'result #0' (5)}}
  %y = rlx.log_softmax %x : tensor<4x5xf32> -> tensor<5x5xf32>
  return %y : tensor<5x5xf32>
}

// -----

func.func @softmax_backward_axis(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax_backward' op 'axis' 2 is out of range for rank 2}}
  %dx = rlx.softmax_backward %x, %x {axis = 2 : i64} : tensor<4x5xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

func.func @softmax_backward_dy_shape(%x: tensor<4x5xf32>, %dy: tensor<4x6xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.softmax_backward' op expects dim 1 of 'operand #0' (5) to equal dim 1 of 'operand #1' (6)}}
  %dx = rlx.softmax_backward %x, %dy : tensor<4x5xf32>, tensor<4x6xf32> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

// A dynamic x does not hide a clash between dy and dx.
func.func @log_softmax_backward_clash(%x: tensor<?x5xf32>, %dy: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.log_softmax_backward' op expects dim 0 of 'operand #1' (3) to equal dim 0 of 'result #0' (4)}}
  %dx = rlx.log_softmax_backward %x, %dy : tensor<?x5xf32>, tensor<3x5xf32> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

func.func @log_softmax_backward_element_type(%x: tensor<4x5xf32>, %dy: tensor<4x5xf64>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.log_softmax_backward' op expects 'operand #0' and 'operand #1' to have the same element type, got 'f32' and 'f64'}}
  %dx = rlx.log_softmax_backward %x, %dy : tensor<4x5xf32>, tensor<4x5xf64> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}

// -----

func.func @log_softmax_backward_rank(%x: tensor<4x5xf32>, %dy: tensor<20xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'rlx.log_softmax_backward' op expects 'operand #0' and 'operand #1' to have the same rank, got 2 and 1}}
  %dx = rlx.log_softmax_backward %x, %dy : tensor<4x5xf32>, tensor<20xf32> -> tensor<4x5xf32>
  return %dx : tensor<4x5xf32>
}
