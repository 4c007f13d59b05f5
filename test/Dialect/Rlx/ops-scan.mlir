// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// A forward scan with two inputs and a weight from outside the region; all
// carries saved.
// CHECK-LABEL: func.func @scan_all
// CHECK: rlx.scan %{{.*}} xs(%{{.*}}, %{{.*}} : tensor<5x2x4xf32>, tensor<5x2x4xf32>) {length = 5 : i64, save_trajectory} : tensor<2x4xf32> -> tensor<2x4xf32>, tensor<5x2x4xf32> {
// CHECK: ^bb0(%{{.*}}: tensor<2x4xf32>, %{{.*}}: tensor<2x4xf32>, %{{.*}}: tensor<2x4xf32>):
// CHECK: linalg.matmul
// CHECK: rlx.activation
// CHECK: rlx.yield %{{.*}} : tensor<2x4xf32>
func.func @scan_all(%h0: tensor<2x4xf32>, %x: tensor<5x2x4xf32>, %g: tensor<5x2x4xf32>, %w: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<5x2x4xf32>) {
  %c, %traj = rlx.scan %h0 xs(%x, %g : tensor<5x2x4xf32>, tensor<5x2x4xf32>) {length = 5 : i64, save_trajectory} : tensor<2x4xf32> -> tensor<2x4xf32>, tensor<5x2x4xf32> {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %gt: tensor<2x4xf32>):
    %e = tensor.empty() : tensor<2x4xf32>
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %a = rlx.activation %m {kind = #rlx.activation<tanh>} : tensor<2x4xf32> -> tensor<2x4xf32>
    %n = linalg.mul ins(%a, %gt : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    rlx.yield %n : tensor<2x4xf32>
  }
  return %c, %traj : tensor<2x4xf32>, tensor<5x2x4xf32>
}

// -----

// Final carry only, dynamic batch and length dims, checkpoints ignored.
// CHECK-LABEL: func.func @scan_final_dynamic
// CHECK: rlx.scan %{{.*}} xs(%{{.*}} : tensor<?x?x3xf64>) {length = 7 : i64, num_checkpoints = 2 : i64} : tensor<?x3xf64> -> tensor<?x3xf64> {
func.func @scan_final_dynamic(%h0: tensor<?x3xf64>, %x: tensor<?x?x3xf64>) -> tensor<?x3xf64> {
  %c = rlx.scan %h0 xs(%x : tensor<?x?x3xf64>) {length = 7 : i64, num_checkpoints = 2 : i64} : tensor<?x3xf64> -> tensor<?x3xf64> {
  ^bb0(%h: tensor<?x3xf64>, %xt: tensor<?x3xf64>):
    %n = rlx.activation %xt {kind = #rlx.activation<sin>} : tensor<?x3xf64> -> tensor<?x3xf64>
    rlx.yield %n : tensor<?x3xf64>
  }
  return %c : tensor<?x3xf64>
}

// -----

// No xs at all; K checkpoints give a [K, *carry] trajectory.
// CHECK-LABEL: func.func @scan_no_xs
// CHECK: rlx.scan %{{.*}} {length = 6 : i64, num_checkpoints = 4 : i64, save_trajectory} : tensor<3xf32> -> tensor<3xf32>, tensor<4x3xf32> {
func.func @scan_no_xs(%h0: tensor<3xf32>) -> tensor<4x3xf32> {
  %c, %traj = rlx.scan %h0 {length = 6 : i64, num_checkpoints = 4 : i64, save_trajectory} : tensor<3xf32> -> tensor<3xf32>, tensor<4x3xf32> {
  ^bb0(%h: tensor<3xf32>):
    %n = rlx.activation %h {kind = #rlx.activation<cos>} : tensor<3xf32> -> tensor<3xf32>
    rlx.yield %n : tensor<3xf32>
  }
  return %traj : tensor<4x3xf32>
}

// -----

// Gradients: all carries saved (no forward_body), then checkpoints
// (forward_body present), dynamic batch.
// CHECK-LABEL: func.func @scan_backward
// CHECK: rlx.scan_backward %{{.*}}, %{{.*}}, %{{.*}} xs(%{{.*}} : tensor<5x?x4xf32>) {length = 5 : i64} : tensor<?x4xf32>, tensor<5x?x4xf32>, tensor<5x?x4xf32> -> tensor<?x4xf32> vjp {
// CHECK: ^bb0(%{{.*}}: tensor<?x4xf32>, %{{.*}}: tensor<?x4xf32>, %{{.*}}: tensor<?x4xf32>):
// CHECK: rlx.activation_backward
// CHECK: rlx.yield %{{.*}}, %{{.*}} : tensor<?x4xf32>, tensor<?x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: rlx.scan_backward_xs %{{.*}}, %{{.*}}, %{{.*}} xs(%{{.*}} : tensor<5x?x4xf32>) {length = 5 : i64, num_checkpoints = 2 : i64, xs_idx = 0 : i64} : tensor<?x4xf32>, tensor<2x?x4xf32>, tensor<5x?x4xf32> -> tensor<5x?x4xf32> vjp {
// CHECK: rlx.yield %{{.*}}, %{{.*}} : tensor<?x4xf32>, tensor<?x4xf32>
// CHECK-NEXT: } forward {
// CHECK: rlx.activation %{{.*}} {kind = #rlx.activation<tanh>}
// CHECK: rlx.yield %{{.*}} : tensor<?x4xf32>
func.func @scan_backward(%h0: tensor<?x4xf32>, %traj: tensor<5x?x4xf32>, %traj2: tensor<2x?x4xf32>, %dy: tensor<5x?x4xf32>, %x: tensor<5x?x4xf32>) -> (tensor<?x4xf32>, tensor<5x?x4xf32>) {
  %dh0 = rlx.scan_backward %h0, %traj, %dy xs(%x : tensor<5x?x4xf32>) {length = 5 : i64} : tensor<?x4xf32>, tensor<5x?x4xf32>, tensor<5x?x4xf32> -> tensor<?x4xf32> vjp {
  ^bb0(%h: tensor<?x4xf32>, %xt: tensor<?x4xf32>, %d: tensor<?x4xf32>):
    %ds = rlx.activation_backward %xt, %d {kind = #rlx.activation<tanh>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
    rlx.yield %ds, %ds : tensor<?x4xf32>, tensor<?x4xf32>
  }
  %dx = rlx.scan_backward_xs %h0, %traj2, %dy xs(%x : tensor<5x?x4xf32>) {length = 5 : i64, num_checkpoints = 2 : i64, xs_idx = 0 : i64} : tensor<?x4xf32>, tensor<2x?x4xf32>, tensor<5x?x4xf32> -> tensor<5x?x4xf32> vjp {
  ^bb0(%h: tensor<?x4xf32>, %xt: tensor<?x4xf32>, %d: tensor<?x4xf32>):
    %ds = rlx.activation_backward %xt, %d {kind = #rlx.activation<tanh>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
    rlx.yield %ds, %ds : tensor<?x4xf32>, tensor<?x4xf32>
  } forward {
  ^bb0(%h: tensor<?x4xf32>, %xt: tensor<?x4xf32>):
    %n = rlx.activation %xt {kind = #rlx.activation<tanh>} : tensor<?x4xf32> -> tensor<?x4xf32>
    rlx.yield %n : tensor<?x4xf32>
  }
  return %dh0, %dx : tensor<?x4xf32>, tensor<5x?x4xf32>
}

// -----

// The generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.scan %{{.*}} xs(%{{.*}} : tensor<4x2xf32>) {length = 4 : i64, num_checkpoints = 4 : i64, save_trajectory} : tensor<2xf32> -> tensor<2xf32>, tensor<4x2xf32> {
// CHECK: rlx.scan_backward %{{.*}}, %{{.*}}, %{{.*}} xs(%{{.*}} : tensor<4x2xf32>) {length = 4 : i64, num_checkpoints = 3 : i64} : tensor<2xf32>, tensor<3x2xf32>, tensor<4x2xf32> -> tensor<2xf32> vjp {
// CHECK: } forward {
func.func @generic(%h0: tensor<2xf32>, %x: tensor<4x2xf32>, %traj3: tensor<3x2xf32>, %dy: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>) {
  %c, %traj = "rlx.scan"(%h0, %x) <{length = 4 : i64, num_checkpoints = 4 : i64, save_trajectory}> ({
  ^bb0(%h: tensor<2xf32>, %xt: tensor<2xf32>):
    "rlx.yield"(%xt) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>, tensor<4x2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>)
  %dh0 = "rlx.scan_backward"(%h0, %traj3, %dy, %x) <{length = 4 : i64, num_checkpoints = 3 : i64}> ({
  ^bb0(%h: tensor<2xf32>, %xt: tensor<2xf32>, %d: tensor<2xf32>):
    "rlx.yield"(%d, %d) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }, {
  ^bb0(%h: tensor<2xf32>, %xt: tensor<2xf32>):
    "rlx.yield"(%xt) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>, tensor<3x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<2xf32>
  return %traj, %dh0 : tensor<4x2xf32>, tensor<2xf32>
}
