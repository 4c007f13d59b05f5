// The emitted IR does not grow with the tensor sizes: each pair of splits
// lowers the same op at a small and a ~100x larger static shape and must give
// the same number of operations (counted in the generic form, bodies
// included).
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk -v RS='//[ ]-----' '{ print gsub(/"[a-z_]+\.[a-z_.]+"/, "") }' | FileCheck %s

// CHECK: {{^}}[[CEB:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[CEB]]{{$}}
func.func @ce_backward_small(%l: tensor<2x3xf32>, %t: tensor<2xi64>, %d: tensor<2xf32>) -> tensor<2x3xf32> {
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<2x3xf32>, tensor<2xi64>, tensor<2xf32> -> tensor<2x3xf32>
  return %dl : tensor<2x3xf32>
}
// -----
func.func @ce_backward_large(%l: tensor<200x300xf32>, %t: tensor<200xi64>, %d: tensor<200xf32>) -> tensor<200x300xf32> {
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<200x300xf32>, tensor<200xi64>, tensor<200xf32> -> tensor<200x300xf32>
  return %dl : tensor<200x300xf32>
}

// -----

// CHECK-NEXT: {{^}}[[CE:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[CE]]{{$}}
func.func @ce_small(%l: tensor<2x3xf64>, %t: tensor<2xi32>) -> tensor<2xf64> {
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<2x3xf64>, tensor<2xi32> -> tensor<2xf64>
  return %loss : tensor<2xf64>
}
// -----
func.func @ce_large(%l: tensor<200x300xf64>, %t: tensor<200xi32>) -> tensor<200xf64> {
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<200x300xf64>, tensor<200xi32> -> tensor<200xf64>
  return %loss : tensor<200xf64>
}

// -----

// CHECK-NEXT: {{^}}[[SM:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[SM]]{{$}}
func.func @softmax_small(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %y = rlx.softmax %x {axis = 1 : i64} : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}
// -----
func.func @softmax_large(%x: tensor<20x30x40xf32>) -> tensor<20x30x40xf32> {
  %y = rlx.softmax %x {axis = 1 : i64} : tensor<20x30x40xf32> -> tensor<20x30x40xf32>
  return %y : tensor<20x30x40xf32>
}

// -----

// CHECK-NEXT: {{^}}[[LSM:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[LSM]]{{$}}
func.func @log_softmax_small(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %y = rlx.log_softmax %x {axis = 1 : i64} : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}
// -----
func.func @log_softmax_large(%x: tensor<20x30x40xf32>) -> tensor<20x30x40xf32> {
  %y = rlx.log_softmax %x {axis = 1 : i64} : tensor<20x30x40xf32> -> tensor<20x30x40xf32>
  return %y : tensor<20x30x40xf32>
}

// -----

// CHECK-NEXT: {{^}}[[SMB:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[SMB]]{{$}}
func.func @softmax_backward_small(%x: tensor<2x3xf64>, %dy: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %dx = rlx.softmax_backward %x, %dy : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %dx : tensor<2x3xf64>
}
// -----
func.func @softmax_backward_large(%x: tensor<200x300xf64>, %dy: tensor<200x300xf64>) -> tensor<200x300xf64> {
  %dx = rlx.softmax_backward %x, %dy : tensor<200x300xf64>, tensor<200x300xf64> -> tensor<200x300xf64>
  return %dx : tensor<200x300xf64>
}

// -----

// CHECK-NEXT: {{^}}[[LSMB:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[LSMB]]{{$}}
func.func @log_softmax_backward_small(%x: tensor<2x3x4xf32>, %dy: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %dx = rlx.log_softmax_backward %x, %dy {axis = 0 : i64} : tensor<2x3x4xf32>, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %dx : tensor<2x3x4xf32>
}
// -----
func.func @log_softmax_backward_large(%x: tensor<20x30x40xf32>, %dy: tensor<20x30x40xf32>) -> tensor<20x30x40xf32> {
  %dx = rlx.log_softmax_backward %x, %dy {axis = 0 : i64} : tensor<20x30x40xf32>, tensor<20x30x40xf32> -> tensor<20x30x40xf32>
  return %dx : tensor<20x30x40xf32>
}
