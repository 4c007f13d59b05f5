// The emitted IR does not depend on tensor sizes: the two splits hold the same
// gathers at a small and a 100x larger shape (table rows, row size and number
// of indices) and must decompose to the same number of ops (generic form).
// A table of at least 2^20 elements has its rows split into blocks on an
// scf.forall (a fixed number of ops more): the last two splits hold such
// tables at two sizes 10x apart, again the same number of ops.
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk '/^\/\/ -----/ { print "ops", n; n = 0; next } /"[a-z_]+[.][a-z_.]+"/ { n++ } END { print "ops", n }' \
// RUN:   | FileCheck %s

// CHECK: ops [[N:[0-9]+]]
// CHECK-NEXT: ops [[N]]
func.func @small(%t: tensor<10x4xf32>, %ids: tensor<3xi32>, %u: tensor<2x10x4xf64>, %dy: tensor<2x3x4xf64>) -> (tensor<3x4xf32>, tensor<10x4xf32>, tensor<2x3x4xf64>, tensor<2x10x4xf64>) {
  %y = rlx.gather %t, %ids {axis = 0 : i64} : tensor<10x4xf32>, tensor<3xi32> -> tensor<3x4xf32>
  %dt = rlx.gather_backward %y, %ids {axis = 0 : i64} : tensor<3x4xf32>, tensor<3xi32> -> tensor<10x4xf32>
  %z = rlx.gather %u, %ids {axis = 1 : i64} : tensor<2x10x4xf64>, tensor<3xi32> -> tensor<2x3x4xf64>
  %du = rlx.gather_backward %dy, %ids {axis = 1 : i64} : tensor<2x3x4xf64>, tensor<3xi32> -> tensor<2x10x4xf64>
  return %y, %dt, %z, %du : tensor<3x4xf32>, tensor<10x4xf32>, tensor<2x3x4xf64>, tensor<2x10x4xf64>
}
// -----
func.func @large(%t: tensor<1000x400xf32>, %ids: tensor<300xi32>, %u: tensor<2x1000x400xf64>, %dy: tensor<2x300x400xf64>) -> (tensor<300x400xf32>, tensor<1000x400xf32>, tensor<2x300x400xf64>, tensor<2x1000x400xf64>) {
  %y = rlx.gather %t, %ids {axis = 0 : i64} : tensor<1000x400xf32>, tensor<300xi32> -> tensor<300x400xf32>
  %dt = rlx.gather_backward %y, %ids {axis = 0 : i64} : tensor<300x400xf32>, tensor<300xi32> -> tensor<1000x400xf32>
  %z = rlx.gather %u, %ids {axis = 1 : i64} : tensor<2x1000x400xf64>, tensor<300xi32> -> tensor<2x300x400xf64>
  %du = rlx.gather_backward %dy, %ids {axis = 1 : i64} : tensor<2x300x400xf64>, tensor<300xi32> -> tensor<2x1000x400xf64>
  return %y, %dt, %z, %du : tensor<300x400xf32>, tensor<1000x400xf32>, tensor<2x300x400xf64>, tensor<2x1000x400xf64>
}

// -----

// CHECK-NEXT: ops [[L:[0-9]+]]
// CHECK-NEXT: ops [[L]]
func.func @split(%dy: tensor<300x400xf32>, %ids: tensor<300xi32>, %dz: tensor<4x300x400xf64>) -> (tensor<4000x400xf32>, tensor<4x1000x400xf64>) {
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<300x400xf32>, tensor<300xi32> -> tensor<4000x400xf32>
  %du = rlx.gather_backward %dz, %ids {axis = 1 : i64} : tensor<4x300x400xf64>, tensor<300xi32> -> tensor<4x1000x400xf64>
  return %dt, %du : tensor<4000x400xf32>, tensor<4x1000x400xf64>
}
// -----
func.func @split_large(%dy: tensor<3000x400xf32>, %ids: tensor<3000xi32>, %dz: tensor<40x3000x400xf64>) -> (tensor<40000x400xf32>, tensor<40x1000x400xf64>) {
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<3000x400xf32>, tensor<3000xi32> -> tensor<40000x400xf32>
  %du = rlx.gather_backward %dz, %ids {axis = 1 : i64} : tensor<40x3000x400xf64>, tensor<3000xi32> -> tensor<40x1000x400xf64>
  return %dt, %du : tensor<40000x400xf32>, tensor<40x1000x400xf64>
}

// -----

// The embedding options add a counting loop and a compare, not IR per row.
// CHECK-NEXT: ops [[M:[0-9]+]]
// CHECK-NEXT: ops [[M]]
func.func @options_small(%dy: tensor<3x4xf32>, %ids: tensor<3xi32>) -> tensor<10x4xf32> {
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64, padding_idx = -1 : i64, scale_grad_by_freq} : tensor<3x4xf32>, tensor<3xi32> -> tensor<10x4xf32>
  return %dt : tensor<10x4xf32>
}
// -----
func.func @options_large(%dy: tensor<300x400xf32>, %ids: tensor<300xi32>) -> tensor<1000x400xf32> {
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64, padding_idx = -1 : i64, scale_grad_by_freq} : tensor<300x400xf32>, tensor<300xi32> -> tensor<1000x400xf32>
  return %dt : tensor<1000x400xf32>
}
