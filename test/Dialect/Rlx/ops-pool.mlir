// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// Static shapes, all attributes.
// CHECK-LABEL: func.func @max_pool2d
// CHECK: rlx.max_pool2d %{{.*}} {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
// CHECK: rlx.max_pool2d_backward %{{.*}}, %{{.*}} {kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<2x3x8x8xf32>, tensor<2x3x4x4xf32> -> tensor<2x3x8x8xf32>
func.func @max_pool2d(%x: tensor<2x3x8x8xf32>, %dy: tensor<2x3x4x4xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>) {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x8x8xf32>, tensor<2x3x4x4xf32> -> tensor<2x3x8x8xf32>
  return %y, %dx : tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>
}

// -----

// Defaults (stride 1, padding 0) are elided; dynamic dims.
// CHECK-LABEL: func.func @dynamic
// CHECK: rlx.max_pool2d %{{.*}} {kernel_size = array<i64: 2, 3>} : tensor<?x4x?x9xf64> -> tensor<?x4x?x7xf64>
// CHECK: rlx.max_pool2d_backward %{{.*}}, %{{.*}} {kernel_size = array<i64: 2, 3>} : tensor<?x?x?x?xf64>, tensor<?x4x?x7xf64> -> tensor<?x4x5x9xf64>
func.func @dynamic(%x: tensor<?x4x?x9xf64>, %xd: tensor<?x?x?x?xf64>) -> (tensor<?x4x?x7xf64>, tensor<?x4x5x9xf64>) {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 3>} : tensor<?x4x?x9xf64> -> tensor<?x4x?x7xf64>
  %dx = rlx.max_pool2d_backward %xd, %y {kernel_size = array<i64: 2, 3>, stride = array<i64: 1, 1>, padding = array<i64: 0, 0>} : tensor<?x?x?x?xf64>, tensor<?x4x?x7xf64> -> tensor<?x4x5x9xf64>
  return %y, %dx : tensor<?x4x?x7xf64>, tensor<?x4x5x9xf64>
}

// -----

// Generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.max_pool2d %{{.*}} {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 1>} : tensor<1x2x5x5xf32> -> tensor<1x2x2x4xf32>
// CHECK: rlx.max_pool2d_backward %{{.*}}, %{{.*}} {kernel_size = array<i64: 2, 2>, padding = array<i64: 1, 0>, stride = array<i64: 2, 1>} : tensor<1x2x5x5xf32>, tensor<1x2x3x4xf32> -> tensor<1x2x5x5xf32>
func.func @generic(%x: tensor<1x2x5x5xf32>, %dy: tensor<1x2x3x4xf32>) -> (tensor<1x2x2x4xf32>, tensor<1x2x5x5xf32>) {
  %y = "rlx.max_pool2d"(%x) <{kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 1>}> : (tensor<1x2x5x5xf32>) -> tensor<1x2x2x4xf32>
  %dx = "rlx.max_pool2d_backward"(%x, %dy) <{kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 1>, padding = array<i64: 1, 0>}> : (tensor<1x2x5x5xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x5x5xf32>
  return %y, %dx : tensor<1x2x2x4xf32>, tensor<1x2x5x5xf32>
}

// -----

// dilation and ceil_mode (defaults [1, 1] and false are elided). Ceil mode:
// H = 7, k = 2, s = 2 gives 4 rows (the last window starts inside x).
// CHECK-LABEL: func.func @dilation_ceil_mode
// CHECK: rlx.max_pool2d %{{.*}} {ceil_mode = true, kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x3x7x7xf32> -> tensor<2x3x4x4xf32>
// CHECK: rlx.max_pool2d_backward %{{.*}}, %{{.*}} {dilation = array<i64: 2, 3>, kernel_size = array<i64: 3, 2>, padding = array<i64: 1, 1>} : tensor<?x3x9x?xf32>, tensor<?x3x7x?xf32> -> tensor<?x3x9x?xf32>
// CHECK: rlx.max_pool2d %{{.*}} {kernel_size = array<i64: 2, 2>} : tensor<1x1x3x3xf64> -> tensor<1x1x2x2xf64>
func.func @dilation_ceil_mode(%x: tensor<2x3x7x7xf32>, %xd: tensor<?x3x9x?xf32>, %dy: tensor<?x3x7x?xf32>, %z: tensor<1x1x3x3xf64>) -> (tensor<2x3x4x4xf32>, tensor<?x3x9x?xf32>, tensor<1x1x2x2xf64>) {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, ceil_mode = true} : tensor<2x3x7x7xf32> -> tensor<2x3x4x4xf32>
  %dx = rlx.max_pool2d_backward %xd, %dy {kernel_size = array<i64: 3, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 3>, ceil_mode = false} : tensor<?x3x9x?xf32>, tensor<?x3x7x?xf32> -> tensor<?x3x9x?xf32>
  %w = rlx.max_pool2d %z {kernel_size = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : tensor<1x1x3x3xf64> -> tensor<1x1x2x2xf64>
  return %y, %dx, %w : tensor<2x3x4x4xf32>, tensor<?x3x9x?xf32>, tensor<1x1x2x2xf64>
}
