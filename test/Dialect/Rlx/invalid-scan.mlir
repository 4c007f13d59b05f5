// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @length_zero(%h0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects 'length' to be >= 1, got 0}}
  %c = rlx.scan %h0 {length = 0 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @checkpoints_too_many(%h0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects 'num_checkpoints' to be in [0, length = 3], got 4}}
  %c = rlx.scan %h0 {length = 3 : i64, num_checkpoints = 4 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @checkpoints_negative(%h0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects 'num_checkpoints' to be in [0, length = 3], got -1}}
  %c = rlx.scan %h0 {length = 3 : i64, num_checkpoints = -1 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @xs_rank0(%h0: tensor<4xf32>, %x: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects 'xs #0' to have rank >= 1 ([length, ...step])}}
  %c = rlx.scan %h0 xs(%x : tensor<f32>) {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @xs_length(%h0: tensor<4xf32>, %x: tensor<3x4xf32>, %y: tensor<5x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects dim 0 of 'xs #1' (5) to equal 'length' (3)}}
  %c = rlx.scan %h0 xs(%x, %y : tensor<3x4xf32>, tensor<5x4xf32>) {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @body_arg_count(%h0: tensor<4xf32>, %x: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects region 'body' to have 2 arguments (carry, step of xs #0), got 1}}
  %c = rlx.scan %h0 xs(%x : tensor<3x4xf32>) {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @body_carry_type(%h0: tensor<4xf32>, %x: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects argument #0 of region 'body' (carry) to have type 'tensor<4xf32>', got 'tensor<?xf32>'}}
  %c = rlx.scan %h0 xs(%x : tensor<3x4xf32>) {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<?xf32>, %a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @body_step_type(%h0: tensor<4xf32>, %x: tensor<3x2x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects argument #1 of region 'body' (step of xs #0) to have type 'tensor<2x4xf32>', got 'tensor<3x2x4xf32>'}}
  %c = rlx.scan %h0 xs(%x : tensor<3x2x4xf32>) {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>, %a: tensor<3x2x4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @body_yield_count(%h0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects region 'body' to yield 1 values (new carry), got 2}}
  %c = rlx.scan %h0 {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h, %h : tensor<4xf32>, tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @body_yield_type(%h0: tensor<4xf32>, %x: tensor<3x4xf64>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects value #0 yielded by region 'body' (new carry) to have type 'tensor<4xf32>', got 'tensor<4xf64>'}}
  %c = rlx.scan %h0 xs(%x : tensor<3x4xf64>) {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>, %a: tensor<4xf64>):
    rlx.yield %a : tensor<4xf64>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @body_no_yield(%h0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects region 'body' to end with 'rlx.yield'}}
  %c = "rlx.scan"(%h0) <{length = 3 : i64}> ({
  ^bb0(%h: tensor<4xf32>):
    %e = tensor.empty() : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

func.func @final_carry_shape(%h0: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{'rlx.scan' op expects dim 0 of 'final_carry' (5) to equal dim 0 of 'init' (4)}}
  %c = rlx.scan %h0 {length = 3 : i64} : tensor<4xf32> -> tensor<5xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<5xf32>
}

// -----

func.func @final_carry_element_type(%h0: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error@+1 {{'rlx.scan' op expects 'final_carry' and 'init' to have the same element type, got 'f64' and 'f32'}}
  %c = rlx.scan %h0 {length = 3 : i64} : tensor<4xf32> -> tensor<4xf64> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf64>
}

// -----

func.func @trajectory_without_flag(%h0: tensor<4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects a 'trajectory' result if and only if 'save_trajectory' is set}}
  %c, %t = rlx.scan %h0 {length = 3 : i64} : tensor<4xf32> -> tensor<4xf32>, tensor<3x4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %t : tensor<3x4xf32>
}

// -----

func.func @flag_without_trajectory(%h0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects a 'trajectory' result if and only if 'save_trajectory' is set}}
  %c = rlx.scan %h0 {length = 3 : i64, save_trajectory} : tensor<4xf32> -> tensor<4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

func.func @trajectory_rank(%h0: tensor<4xf32>) -> tensor<12xf32> {
  // expected-error@+1 {{'rlx.scan' op expects 'trajectory' to have rank 2, got 1}}
  %c, %t = rlx.scan %h0 {length = 3 : i64, save_trajectory} : tensor<4xf32> -> tensor<4xf32>, tensor<12xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %t : tensor<12xf32>
}

// -----

func.func @trajectory_rows_all(%h0: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects dim 0 of 'trajectory' (2) to equal the number of saved rows (3)}}
  %c, %t = rlx.scan %h0 {length = 3 : i64, num_checkpoints = 3 : i64, save_trajectory} : tensor<4xf32> -> tensor<4xf32>, tensor<2x4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %t : tensor<2x4xf32>
}

// -----

func.func @trajectory_rows_checkpoints(%h0: tensor<4xf32>) -> tensor<5x4xf32> {
  // expected-error@+1 {{'rlx.scan' op expects dim 0 of 'trajectory' (5) to equal the number of saved rows (2)}}
  %c, %t = rlx.scan %h0 {length = 5 : i64, num_checkpoints = 2 : i64, save_trajectory} : tensor<4xf32> -> tensor<4xf32>, tensor<5x4xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %t : tensor<5x4xf32>
}

// -----

func.func @trajectory_carry_dims(%h0: tensor<4xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{'rlx.scan' op expects dim 1 of 'trajectory' (5) to equal dim 0 of 'init' (4)}}
  %c, %t = rlx.scan %h0 {length = 3 : i64, save_trajectory} : tensor<4xf32> -> tensor<4xf32>, tensor<3x5xf32> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %t : tensor<3x5xf32>
}

// -----

func.func @trajectory_element_type(%h0: tensor<4xf32>) -> tensor<3x4xf64> {
  // expected-error@+1 {{'rlx.scan' op expects 'trajectory' and 'init' to have the same element type, got 'f64' and 'f32'}}
  %c, %t = rlx.scan %h0 {length = 3 : i64, save_trajectory} : tensor<4xf32> -> tensor<4xf32>, tensor<3x4xf64> {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %t : tensor<3x4xf64>
}

// -----

func.func @yield_outside_scan(%h0: tensor<4xf32>) {
  // expected-error@+1 {{'rlx.yield' op expects parent op to be one of 'rlx.scan, rlx.scan_backward, rlx.scan_backward_xs'}}
  rlx.yield %h0 : tensor<4xf32>
}

// -----

func.func @backward_length(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects 'length' to be >= 1, got -3}}
  %d = rlx.scan_backward %h0, %t, %dy {length = -3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @backward_checkpoints(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects 'num_checkpoints' to be in [0, length = 3], got 7}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64, num_checkpoints = 7 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @backward_xs_length(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>, %x: tensor<2x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects dim 0 of 'xs #0' (2) to equal 'length' (3)}}
  %d = rlx.scan_backward %h0, %t, %dy xs(%x : tensor<2x4xf32>) {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @backward_trajectory_rows(%h0: tensor<4xf32>, %t: tensor<5x4xf32>, %dy: tensor<5x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects dim 0 of 'trajectory' (5) to equal the number of saved rows (2)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 5 : i64, num_checkpoints = 2 : i64} : tensor<4xf32>, tensor<5x4xf32>, tensor<5x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  } forward {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @backward_trajectory_rank(%h0: tensor<4xf32>, %t: tensor<4xf32>, %dy: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects 'trajectory' to have rank 2, got 1}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64} : tensor<4xf32>, tensor<4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @backward_upstream_length(%h0: tensor<4xf32>, %t: tensor<2x4xf32>, %dy: tensor<2x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects dim 0 of 'upstream' (2) to equal 'length' (5)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 5 : i64, num_checkpoints = 2 : i64} : tensor<4xf32>, tensor<2x4xf32>, tensor<2x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  } forward {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @backward_upstream_carry(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x6xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects dim 1 of 'upstream' (6) to equal dim 0 of 'init' (4)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x6xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @backward_upstream_element_type(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf64>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects 'upstream' and 'init' to have the same element type, got 'f64' and 'f32'}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf64> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @vjp_arg_count(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>, %x: tensor<3x2xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects region 'body_vjp' to have 3 arguments (carry, step of xs #0, d_out), got 2}}
  %d = rlx.scan_backward %h0, %t, %dy xs(%x : tensor<3x2xf32>) {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @vjp_dout_type(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects argument #1 of region 'body_vjp' (d_out) to have type 'tensor<4xf32>', got 'tensor<3x4xf32>'}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<3x4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @vjp_yield_count(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>, %x: tensor<3x2xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects region 'body_vjp' to yield 2 values (dcarry, dx of xs #0), got 1}}
  %d = rlx.scan_backward %h0, %t, %dy xs(%x : tensor<3x2xf32>) {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<2xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @vjp_dx_type(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>, %x: tensor<3x2xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects value #1 yielded by region 'body_vjp' (dx of xs #0) to have type 'tensor<2xf32>', got 'tensor<4xf32>'}}
  %d = rlx.scan_backward %h0, %t, %dy xs(%x : tensor<3x2xf32>) {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<2xf32>, %g: tensor<4xf32>):
    rlx.yield %g, %g : tensor<4xf32>, tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @forward_missing(%h0: tensor<4xf32>, %t: tensor<2x4xf32>, %dy: tensor<5x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects region 'forward_body' to be present when num_checkpoints = 2 and length = 5 (it recomputes carries only when 0 < num_checkpoints < length)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 5 : i64, num_checkpoints = 2 : i64} : tensor<4xf32>, tensor<2x4xf32>, tensor<5x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @forward_unneeded(%h0: tensor<4xf32>, %t: tensor<5x4xf32>, %dy: tensor<5x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects region 'forward_body' to be empty when num_checkpoints = 5 and length = 5 (it recomputes carries only when 0 < num_checkpoints < length)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 5 : i64, num_checkpoints = 5 : i64} : tensor<4xf32>, tensor<5x4xf32>, tensor<5x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  } forward {
  ^bb0(%h: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @forward_arg_type(%h0: tensor<4xf32>, %t: tensor<2x4xf32>, %dy: tensor<5x4xf32>, %x: tensor<5x3xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects argument #1 of region 'forward_body' (step of xs #0) to have type 'tensor<3xf32>', got 'tensor<4xf32>'}}
  %d = rlx.scan_backward %h0, %t, %dy xs(%x : tensor<5x3xf32>) {length = 5 : i64, num_checkpoints = 2 : i64} : tensor<4xf32>, tensor<2x4xf32>, tensor<5x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<3xf32>, %g: tensor<4xf32>):
    rlx.yield %g, %a : tensor<4xf32>, tensor<3xf32>
  } forward {
  ^bb0(%h: tensor<4xf32>, %a: tensor<4xf32>):
    rlx.yield %h : tensor<4xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @forward_yield_type(%h0: tensor<4xf32>, %t: tensor<2x4xf32>, %dy: tensor<5x4xf32>, %x: tensor<5x3xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects value #0 yielded by region 'forward_body' (new carry) to have type 'tensor<4xf32>', got 'tensor<3xf32>'}}
  %d = rlx.scan_backward %h0, %t, %dy xs(%x : tensor<5x3xf32>) {length = 5 : i64, num_checkpoints = 2 : i64} : tensor<4xf32>, tensor<2x4xf32>, tensor<5x4xf32> -> tensor<4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<3xf32>, %g: tensor<4xf32>):
    rlx.yield %g, %a : tensor<4xf32>, tensor<3xf32>
  } forward {
  ^bb0(%h: tensor<4xf32>, %a: tensor<3xf32>):
    rlx.yield %a : tensor<3xf32>
  }
  return %d : tensor<4xf32>
}

// -----

func.func @dinit_type(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects dim 0 of 'dinit' (8) to equal dim 0 of 'init' (4)}}
  %d = rlx.scan_backward %h0, %t, %dy {length = 3 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<8xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<8xf32>
}

// -----

func.func @xs_idx_range(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>, %x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'rlx.scan_backward_xs' op expects 'xs_idx' to be in [0, 1) (the number of xs), got 1}}
  %d = rlx.scan_backward_xs %h0, %t, %dy xs(%x : tensor<3x2xf32>) {length = 3 : i64, xs_idx = 1 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x2xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<2xf32>, %g: tensor<4xf32>):
    rlx.yield %g, %a : tensor<4xf32>, tensor<2xf32>
  }
  return %d : tensor<3x2xf32>
}

// -----

func.func @xs_idx_no_xs(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'rlx.scan_backward_xs' op expects 'xs_idx' to be in [0, 0) (the number of xs), got 0}}
  %d = rlx.scan_backward_xs %h0, %t, %dy {length = 3 : i64, xs_idx = 0 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return %d : tensor<3x4xf32>
}

// -----

func.func @dxs_type(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>, %x: tensor<3x2xf32>, %y: tensor<3x5xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'rlx.scan_backward_xs' op expects dim 1 of 'dxs' (2) to equal dim 1 of 'xs #1' (5)}}
  %d = rlx.scan_backward_xs %h0, %t, %dy xs(%x, %y : tensor<3x2xf32>, tensor<3x5xf32>) {length = 3 : i64, xs_idx = 1 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x2xf32> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<2xf32>, %b: tensor<5xf32>, %g: tensor<4xf32>):
    rlx.yield %g, %a, %b : tensor<4xf32>, tensor<2xf32>, tensor<5xf32>
  }
  return %d : tensor<3x2xf32>
}

// -----

func.func @dxs_element_type(%h0: tensor<4xf32>, %t: tensor<3x4xf32>, %dy: tensor<3x4xf32>, %x: tensor<3x2xf32>) -> tensor<3x2xf64> {
  // expected-error@+1 {{'rlx.scan_backward_xs' op expects 'dxs' and 'xs #0' to have the same element type, got 'f64' and 'f32'}}
  %d = rlx.scan_backward_xs %h0, %t, %dy xs(%x : tensor<3x2xf32>) {length = 3 : i64, xs_idx = 0 : i64} : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x2xf64> vjp {
  ^bb0(%h: tensor<4xf32>, %a: tensor<2xf32>, %g: tensor<4xf32>):
    rlx.yield %g, %a : tensor<4xf32>, tensor<2xf32>
  }
  return %d : tensor<3x2xf64>
}

// -----

// Carry dims agree among the stacked operands and results even when init is
// dynamic.
func.func @upstream_vs_trajectory(%h0: tensor<?xf32>, %traj: tensor<3x4xf32>, %dy: tensor<3x5xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects dim 1 of 'upstream' (5) to equal dim 1 of 'trajectory' (4)}}
  %d = rlx.scan_backward %h0, %traj, %dy {length = 3 : i64} : tensor<?xf32>, tensor<3x4xf32>, tensor<3x5xf32> -> tensor<?xf32> vjp {
  ^bb0(%h: tensor<?xf32>, %g: tensor<?xf32>):
    rlx.yield %g : tensor<?xf32>
  }
  return %d : tensor<?xf32>
}

// -----

func.func @dinit_vs_trajectory(%h0: tensor<?xf32>, %traj: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{'rlx.scan_backward' op expects dim 0 of 'dinit' (5) to equal dim 1 of 'trajectory' (4)}}
  %d = rlx.scan_backward %h0, %traj, %dy {length = 3 : i64} : tensor<?xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<5xf32> vjp {
  ^bb0(%h: tensor<?xf32>, %g: tensor<?xf32>):
    rlx.yield %g : tensor<?xf32>
  }
  return %d : tensor<5xf32>
}

// -----

func.func @final_carry_vs_trajectory(%h0: tensor<?xf32>) -> (tensor<5xf32>, tensor<2x4xf32>) {
  // expected-error@+1 {{'rlx.scan' op expects dim 0 of 'final_carry' (5) to equal dim 1 of 'trajectory' (4)}}
  %c, %t = rlx.scan %h0 {length = 2 : i64, save_trajectory} : tensor<?xf32> -> tensor<5xf32>, tensor<2x4xf32> {
  ^bb0(%h: tensor<?xf32>):
    rlx.yield %h : tensor<?xf32>
  }
  return %c, %t : tensor<5xf32>, tensor<2x4xf32>
}

// -----

// The checkpoint segment bounds ceil(j * L / K) must not wrap int64_t.
func.func @length_overflow(%h0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'rlx.scan' op expects the number of saved rows times 'length' (3 * 9223372036854775807) to fit in 64 bits}}
  %c = rlx.scan %h0 {length = 9223372036854775807 : i64, num_checkpoints = 3 : i64} : tensor<3xf32> -> tensor<3xf32> {
  ^bb0(%h: tensor<3xf32>):
    rlx.yield %h : tensor<3xf32>
  }
  return %c : tensor<3xf32>
}
