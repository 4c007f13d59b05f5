// The emitted IR does not depend on tensor sizes: each pair of splits below
// holds the same ops at a small shape and at one 100x or more larger, and must
// decompose to the same number of ops (counted in the generic form).
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk '/^\/\/ -----/ { print "ops", n; n = 0; next } /"[a-z_]+[.][a-z_.]+"/ { n++ } END { print "ops", n }' \
// RUN:   | FileCheck %s

// Matrix path (L = 2 and 30 <= the block length 32), batch 3 and 300, a
// middle axis too.
// CHECK: ops [[MATRIX:[0-9]+]]
// CHECK-NEXT: ops [[MATRIX]]
func.func @matrix_small(%x: tensor<3x2xf32>, %y: tensor<3x2x2xf64>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2x2xf64>) {
  %a = rlx.cumsum %x {axis = 1 : i64} : tensor<3x2xf32> -> tensor<3x2xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64, exclusive} : tensor<3x2xf32> -> tensor<3x2xf32>
  %c = rlx.cumsum_backward %y {axis = 1 : i64} : tensor<3x2x2xf64> -> tensor<3x2x2xf64>
  return %a, %b, %c : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2x2xf64>
}
// -----
func.func @matrix_large(%x: tensor<300x30xf32>, %y: tensor<300x30x200xf64>) -> (tensor<300x30xf32>, tensor<300x30xf32>, tensor<300x30x200xf64>) {
  %a = rlx.cumsum %x {axis = 1 : i64} : tensor<300x30xf32> -> tensor<300x30xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64, exclusive} : tensor<300x30xf32> -> tensor<300x30xf32>
  %c = rlx.cumsum_backward %y {axis = 1 : i64} : tensor<300x30x200xf64> -> tensor<300x30x200xf64>
  return %a, %b, %c : tensor<300x30xf32>, tensor<300x30xf32>, tensor<300x30x200xf64>
}

// -----

// Blocked path, block totals summed by a matrix (L = 300 and 3000, not
// multiples of the block: 10 and 94 blocks <= 256), batch 4 and 400.
// CHECK: ops [[BLOCKED:[0-9]+]]
// CHECK-NEXT: ops [[BLOCKED]]
func.func @blocked_small(%x: tensor<4x300xf32>) -> (tensor<4x300xf32>, tensor<4x300xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<4x300xf32> -> tensor<4x300xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<4x300xf32> -> tensor<4x300xf32>
  return %a, %b : tensor<4x300xf32>, tensor<4x300xf32>
}
// -----
func.func @blocked_large(%x: tensor<400x3000xf32>) -> (tensor<400x3000xf32>, tensor<400x3000xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<400x3000xf32> -> tensor<400x3000xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<400x3000xf32> -> tensor<400x3000xf32>
  return %a, %b : tensor<400x3000xf32>, tensor<400x3000xf32>
}

// -----

// Blocked path, block totals scanned (L = 30000 and 300001: more than 256
// blocks), batch 4 and 400.
// CHECK: ops [[BLOCKSCAN:[0-9]+]]
// CHECK-NEXT: ops [[BLOCKSCAN]]
func.func @blockscan_small(%x: tensor<4x30000xf32>) -> (tensor<4x30000xf32>, tensor<4x30000xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<4x30000xf32> -> tensor<4x30000xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<4x30000xf32> -> tensor<4x30000xf32>
  return %a, %b : tensor<4x30000xf32>, tensor<4x30000xf32>
}
// -----
func.func @blockscan_large(%x: tensor<400x300001xf32>) -> (tensor<400x300001xf32>, tensor<400x300001xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<400x300001xf32> -> tensor<400x300001xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<400x300001xf32> -> tensor<400x300001xf32>
  return %a, %b : tensor<400x300001xf32>, tensor<400x300001xf32>
}

// -----

// Scan path (a dynamic axis), batch 4 and 400.
// CHECK: ops [[SCAN:[0-9]+]]
// CHECK-NEXT: ops [[SCAN]]
func.func @scan_small(%x: tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<4x?xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<4x?xf32> -> tensor<4x?xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<4x?xf32> -> tensor<4x?xf32>
  return %a, %b : tensor<4x?xf32>, tensor<4x?xf32>
}
// -----
func.func @scan_large(%x: tensor<400x?xf32>) -> (tensor<400x?xf32>, tensor<400x?xf32>) {
  %a = rlx.cumsum %x {axis = 1 : i64, exclusive} : tensor<400x?xf32> -> tensor<400x?xf32>
  %b = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<400x?xf32> -> tensor<400x?xf32>
  return %a, %b : tensor<400x?xf32>, tensor<400x?xf32>
}
