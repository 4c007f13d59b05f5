// IR size of the loop forms does not depend on the length: each pair of
// splits below (L = 300 and L = 30000, checkpoints scaled alike) must
// lower to the same number of ops. The awk script counts the ops of every
// split (generic form: one quoted op name per op) and compares pairs.
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk -f %S/Inputs/pairwise-op-count.awk | FileCheck %s

// CHECK: pair 0: {{[1-9][0-9]*}} ops, same
// CHECK-NEXT: pair 1: {{[1-9][0-9]*}} ops, same
// CHECK-NEXT: pair 2: {{[1-9][0-9]*}} ops, same
// CHECK-NEXT: pair 3: {{[1-9][0-9]*}} ops, same
// CHECK-NOT: differ

func.func @bwd_xs_300_7(%h0: tensor<2x4xf32>, %traj: tensor<7x2x4xf32>, %dy: tensor<300x2x4xf32>, %x: tensor<300x2x4xf32>, %g: tensor<300x2x4xf32>, %w: tensor<4x4xf32>) -> tensor<300x2x4xf32> {
  %r = rlx.scan_backward_xs %h0, %traj, %dy xs(%x, %g : tensor<300x2x4xf32>, tensor<300x2x4xf32>) {length = 300 : i64, num_checkpoints = 7 : i64, xs_idx = 1 : i64} : tensor<2x4xf32>, tensor<7x2x4xf32>, tensor<300x2x4xf32> -> tensor<300x2x4xf32> vjp {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %dz = rlx.activation_backward %m, %d {kind = #rlx.activation<tanh>} : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %dz, %dz, %gt : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  } forward {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %n = rlx.activation %m {kind = #rlx.activation<tanh>} : tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %n : tensor<2x4xf32>
  }
  return %r : tensor<300x2x4xf32>
}

// -----

func.func @bwd_xs_30000_700(%h0: tensor<2x4xf32>, %traj: tensor<700x2x4xf32>, %dy: tensor<30000x2x4xf32>, %x: tensor<30000x2x4xf32>, %g: tensor<30000x2x4xf32>, %w: tensor<4x4xf32>) -> tensor<30000x2x4xf32> {
  %r = rlx.scan_backward_xs %h0, %traj, %dy xs(%x, %g : tensor<30000x2x4xf32>, tensor<30000x2x4xf32>) {length = 30000 : i64, num_checkpoints = 700 : i64, xs_idx = 1 : i64} : tensor<2x4xf32>, tensor<700x2x4xf32>, tensor<30000x2x4xf32> -> tensor<30000x2x4xf32> vjp {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %dz = rlx.activation_backward %m, %d {kind = #rlx.activation<tanh>} : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %dz, %dz, %gt : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  } forward {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %n = rlx.activation %m {kind = #rlx.activation<tanh>} : tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %n : tensor<2x4xf32>
  }
  return %r : tensor<30000x2x4xf32>
}

// -----

func.func @bwd_300_0(%h0: tensor<2x4xf32>, %traj: tensor<300x2x4xf32>, %dy: tensor<300x2x4xf32>, %x: tensor<300x2x4xf32>, %g: tensor<300x2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %r = rlx.scan_backward %h0, %traj, %dy xs(%x, %g : tensor<300x2x4xf32>, tensor<300x2x4xf32>) {length = 300 : i64, num_checkpoints = 0 : i64} : tensor<2x4xf32>, tensor<300x2x4xf32>, tensor<300x2x4xf32> -> tensor<2x4xf32> vjp {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %dz = rlx.activation_backward %m, %d {kind = #rlx.activation<tanh>} : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %dz, %dz, %gt : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

func.func @bwd_30000_0(%h0: tensor<2x4xf32>, %traj: tensor<30000x2x4xf32>, %dy: tensor<30000x2x4xf32>, %x: tensor<30000x2x4xf32>, %g: tensor<30000x2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %r = rlx.scan_backward %h0, %traj, %dy xs(%x, %g : tensor<30000x2x4xf32>, tensor<30000x2x4xf32>) {length = 30000 : i64, num_checkpoints = 0 : i64} : tensor<2x4xf32>, tensor<30000x2x4xf32>, tensor<30000x2x4xf32> -> tensor<2x4xf32> vjp {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %dz = rlx.activation_backward %m, %d {kind = #rlx.activation<tanh>} : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %dz, %dz, %gt : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

func.func @bwd_xs_300_300(%h0: tensor<2x4xf32>, %traj: tensor<300x2x4xf32>, %dy: tensor<300x2x4xf32>, %x: tensor<300x2x4xf32>, %g: tensor<300x2x4xf32>, %w: tensor<4x4xf32>) -> tensor<300x2x4xf32> {
  %r = rlx.scan_backward_xs %h0, %traj, %dy xs(%x, %g : tensor<300x2x4xf32>, tensor<300x2x4xf32>) {length = 300 : i64, num_checkpoints = 300 : i64, xs_idx = 1 : i64} : tensor<2x4xf32>, tensor<300x2x4xf32>, tensor<300x2x4xf32> -> tensor<300x2x4xf32> vjp {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %dz = rlx.activation_backward %m, %d {kind = #rlx.activation<tanh>} : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %dz, %dz, %gt : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %r : tensor<300x2x4xf32>
}

// -----

func.func @bwd_xs_30000_30000(%h0: tensor<2x4xf32>, %traj: tensor<30000x2x4xf32>, %dy: tensor<30000x2x4xf32>, %x: tensor<30000x2x4xf32>, %g: tensor<30000x2x4xf32>, %w: tensor<4x4xf32>) -> tensor<30000x2x4xf32> {
  %r = rlx.scan_backward_xs %h0, %traj, %dy xs(%x, %g : tensor<30000x2x4xf32>, tensor<30000x2x4xf32>) {length = 30000 : i64, num_checkpoints = 30000 : i64, xs_idx = 1 : i64} : tensor<2x4xf32>, tensor<30000x2x4xf32>, tensor<30000x2x4xf32> -> tensor<30000x2x4xf32> vjp {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %dz = rlx.activation_backward %m, %d {kind = #rlx.activation<tanh>} : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %dz, %dz, %gt : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %r : tensor<30000x2x4xf32>
}

// -----

func.func @fwd_300_7(%h0: tensor<2x4xf32>, %x: tensor<300x2x4xf32>, %w: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<7x2x4xf32>) {
  %c, %traj = rlx.scan %h0 xs(%x : tensor<300x2x4xf32>) {length = 300 : i64, num_checkpoints = 7 : i64, save_trajectory} : tensor<2x4xf32> -> tensor<2x4xf32>, tensor<7x2x4xf32> {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %n = rlx.activation %m {kind = #rlx.activation<tanh>} : tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %n : tensor<2x4xf32>
  }
  return %c, %traj : tensor<2x4xf32>, tensor<7x2x4xf32>
}

// -----

func.func @fwd_30000_700(%h0: tensor<2x4xf32>, %x: tensor<30000x2x4xf32>, %w: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<700x2x4xf32>) {
  %c, %traj = rlx.scan %h0 xs(%x : tensor<30000x2x4xf32>) {length = 30000 : i64, num_checkpoints = 700 : i64, save_trajectory} : tensor<2x4xf32> -> tensor<2x4xf32>, tensor<700x2x4xf32> {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %n = rlx.activation %m {kind = #rlx.activation<tanh>} : tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %n : tensor<2x4xf32>
  }
  return %c, %traj : tensor<2x4xf32>, tensor<700x2x4xf32>
}
