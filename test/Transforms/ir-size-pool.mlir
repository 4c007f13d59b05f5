// The emitted IR does not grow with the tensor sizes: the same op at
// 1x1x6x6, 2x3x6x6 and 8x64x112x112 decomposes / lowers to the same IR. The
// awk script prints, per split, the number of ops other than arith.constant
// (whose count depends on which constant values happen to coincide) and the
// number without linalg.index as well (a linalg.index over a unit dim, as at
// 1x1x4x4, folds to a constant). FileCheck requires equal counts.
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk 'BEGIN { n = 0 } /^\/\/ -----/ { n++ } \
// RUN:          { all[n] += gsub(/"[a-z_]+\.[a-z_.0-9]+"\(/, "&"); cst[n] += gsub(/"arith\.constant"\(/, "&"); \
// RUN:            idx[n] += gsub(/"linalg\.index"\(/, "&") } \
// RUN:          END { for (i = 0; i <= n; i++) print "split", i ": ops=" all[i] - cst[i], "structural=" all[i] - cst[i] - idx[i] }' \
// RUN:   | FileCheck %s

// CHECK: split 0: ops={{[0-9]+}} structural=[[BS:[1-9][0-9]+]]{{$}}
// CHECK-NEXT: split 1: ops=[[BO:[1-9][0-9]+]] structural=[[BS]]{{$}}
// CHECK-NEXT: split 2: ops=[[BO]] structural=[[BS]]{{$}}
// CHECK-NEXT: split 3: ops={{[0-9]+}} structural=[[FS:[1-9][0-9]*]]{{$}}
// CHECK-NEXT: split 4: ops=[[FO:[1-9][0-9]*]] structural=[[FS]]{{$}}
// CHECK-NEXT: split 5: ops=[[FO]] structural=[[FS]]{{$}}
// Dilation 2 and ceil mode (the last window of 7 reaches past the input).
// CHECK-NEXT: split 6: ops={{[0-9]+}} structural=[[DBS:[1-9][0-9]+]]{{$}}
// CHECK-NEXT: split 7: ops=[[DBO:[1-9][0-9]+]] structural=[[DBS]]{{$}}
// CHECK-NEXT: split 8: ops=[[DBO]] structural=[[DBS]]{{$}}
// CHECK-NEXT: split 9: ops={{[0-9]+}} structural=[[DFS:[1-9][0-9]*]]{{$}}
// CHECK-NEXT: split 10: ops=[[DFO:[1-9][0-9]*]] structural=[[DFS]]{{$}}
// CHECK-NEXT: split 11: ops=[[DFO]] structural=[[DFS]]{{$}}
// An odd plane (W not a multiple of the stride): the scatter form, one
// column of x inserted on its own.
// CHECK-NEXT: split 12: ops={{[0-9]+}} structural=[[OS:[1-9][0-9]+]]{{$}}
// CHECK-NEXT: split 13: ops=[[OO:[1-9][0-9]+]] structural=[[OS]]{{$}}
// CHECK-NEXT: split 14: ops=[[OO]] structural=[[OS]]{{$}}

func.func @backward_tiny(%x: tensor<1x1x6x6xf32>, %dy: tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32> -> tensor<1x1x6x6xf32>
  return %dx : tensor<1x1x6x6xf32>
}

// -----

func.func @backward_small(%x: tensor<2x3x6x6xf32>, %dy: tensor<2x3x3x3xf32>) -> tensor<2x3x6x6xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x6x6xf32>, tensor<2x3x3x3xf32> -> tensor<2x3x6x6xf32>
  return %dx : tensor<2x3x6x6xf32>
}

// -----

func.func @backward_large(%x: tensor<8x64x112x112xf32>, %dy: tensor<8x64x56x56xf32>) -> tensor<8x64x112x112xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<8x64x112x112xf32>, tensor<8x64x56x56xf32> -> tensor<8x64x112x112xf32>
  return %dx : tensor<8x64x112x112xf32>
}

// -----

func.func @forward_tiny(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

func.func @forward_small(%x: tensor<2x3x5x5xf32>) -> tensor<2x3x3x3xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x5x5xf32> -> tensor<2x3x3x3xf32>
  return %y : tensor<2x3x3x3xf32>
}

// -----

func.func @forward_large(%x: tensor<8x64x112x112xf32>) -> tensor<8x64x56x56xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<8x64x112x112xf32> -> tensor<8x64x56x56xf32>
  return %y : tensor<8x64x56x56xf32>
}

// -----

func.func @dilated_ceil_backward_tiny(%x: tensor<1x1x4x4xf32>, %dy: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, ceil_mode = true} : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32> -> tensor<1x1x4x4xf32>
  return %dx : tensor<1x1x4x4xf32>
}

// -----

func.func @dilated_ceil_backward_small(%x: tensor<2x3x7x7xf32>, %dy: tensor<2x3x3x3xf32>) -> tensor<2x3x7x7xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, ceil_mode = true} : tensor<2x3x7x7xf32>, tensor<2x3x3x3xf32> -> tensor<2x3x7x7xf32>
  return %dx : tensor<2x3x7x7xf32>
}

// -----

func.func @dilated_ceil_backward_large(%x: tensor<8x64x113x113xf32>, %dy: tensor<8x64x56x56xf32>) -> tensor<8x64x113x113xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, ceil_mode = true} : tensor<8x64x113x113xf32>, tensor<8x64x56x56xf32> -> tensor<8x64x113x113xf32>
  return %dx : tensor<8x64x113x113xf32>
}

// -----

func.func @dilated_ceil_forward_tiny(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, ceil_mode = true} : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// -----

func.func @dilated_ceil_forward_small(%x: tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, ceil_mode = true} : tensor<2x3x7x7xf32> -> tensor<2x3x3x3xf32>
  return %y : tensor<2x3x3x3xf32>
}

// -----

func.func @dilated_ceil_forward_large(%x: tensor<8x64x113x113xf32>) -> tensor<8x64x56x56xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, ceil_mode = true} : tensor<8x64x113x113xf32> -> tensor<8x64x56x56xf32>
  return %y : tensor<8x64x56x56xf32>
}

// -----

func.func @odd_backward_tiny(%x: tensor<1x1x5x5xf32>, %dy: tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32> -> tensor<1x1x5x5xf32>
  return %dx : tensor<1x1x5x5xf32>
}

// -----

func.func @odd_backward_small(%x: tensor<2x3x7x7xf32>, %dy: tensor<2x3x4x4xf32>) -> tensor<2x3x7x7xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x7x7xf32>, tensor<2x3x4x4xf32> -> tensor<2x3x7x7xf32>
  return %dx : tensor<2x3x7x7xf32>
}

// -----

func.func @odd_backward_large(%x: tensor<8x64x111x111xf32>, %dy: tensor<8x64x56x56xf32>) -> tensor<8x64x111x111xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<8x64x111x111xf32>, tensor<8x64x56x56xf32> -> tensor<8x64x111x111xf32>
  return %dx : tensor<8x64x111x111xf32>
}
