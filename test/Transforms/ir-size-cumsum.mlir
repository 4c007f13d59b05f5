// The emitted IR does not depend on tensor sizes: each pair of splits below
// holds the same ops at a small and a 100x larger shape, and must decompose to
// the same number of ops (counted in the generic form).
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk '/^\/\/ -----/ { print "ops", n; n = 0; next } /"[a-z_]+[.][a-z_.]+"/ { n++ } END { print "ops", n }' \
// RUN:   | FileCheck %s

// Matrix path (L = 2 and 200 <= 256), batch 3 and 300, a middle axis too.
// CHECK: ops [[MATRIX:[0-9]+]]
// CHECK-NEXT: ops [[MATRIX]]
func.func @matrix_small(%x: tensor<3x2xf32>, %y: tensor<3x2x2xf64>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2x2xf64>) {
  %a = rlx.cumsum %x {axis = 1 : i64} : tensor<3x2xf32> -> tensor<3x2xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64, exclusive} : tensor<3x2xf32> -> tensor<3x2xf32>
  %c = rlx.cumsum_backward %y {axis = 1 : i64} : tensor<3x2x2xf64> -> tensor<3x2x2xf64>
  return %a, %b, %c : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2x2xf64>
}
// -----
func.func @matrix_large(%x: tensor<300x200xf32>, %y: tensor<300x200x200xf64>) -> (tensor<300x200xf32>, tensor<300x200xf32>, tensor<300x200x200xf64>) {
  %a = rlx.cumsum %x {axis = 1 : i64} : tensor<300x200xf32> -> tensor<300x200xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64, exclusive} : tensor<300x200xf32> -> tensor<300x200xf32>
  %c = rlx.cumsum_backward %y {axis = 1 : i64} : tensor<300x200x200xf64> -> tensor<300x200x200xf64>
  return %a, %b, %c : tensor<300x200xf32>, tensor<300x200xf32>, tensor<300x200x200xf64>
}

// -----

// Scan path (L = 300 and 30000 > 256), batch 4 and 400.
// CHECK: ops [[SCAN:[0-9]+]]
// CHECK-NEXT: ops [[SCAN]]
func.func @scan_small(%x: tensor<4x300xf32>) -> (tensor<4x300xf32>, tensor<4x300xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<4x300xf32> -> tensor<4x300xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<4x300xf32> -> tensor<4x300xf32>
  return %a, %b : tensor<4x300xf32>, tensor<4x300xf32>
}
// -----
func.func @scan_large(%x: tensor<400x30000xf32>) -> (tensor<400x30000xf32>, tensor<400x30000xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<400x30000xf32> -> tensor<400x30000xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<400x30000xf32> -> tensor<400x30000xf32>
  return %a, %b : tensor<400x30000xf32>, tensor<400x30000xf32>
}
