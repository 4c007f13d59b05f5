// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// Defaults (stride 1, padding 0, dilation 1, groups 1) are elided.
// CHECK-LABEL: func.func @conv2d_defaults
// CHECK: rlx.conv2d %{{.*}}, %{{.*}} : tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<2x4x6x6xf32>
func.func @conv2d_defaults(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32> {
  %y = rlx.conv2d %x, %w : tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<2x4x6x6xf32>
  return %y : tensor<2x4x6x6xf32>
}

// -----

// CHECK-LABEL: func.func @conv2d_dynamic
// CHECK: rlx.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 2, 1>, groups = 2 : i64, padding = array<i64: 1, 0>, stride = array<i64: 2, 3>} : tensor<?x4x9x7xf64>, tensor<6x2x3x2xf64> -> tensor<?x6x4x2xf64>
func.func @conv2d_dynamic(%x: tensor<?x4x9x7xf64>, %w: tensor<6x2x3x2xf64>) -> tensor<?x6x4x2xf64> {
  %y = rlx.conv2d %x, %w {stride = array<i64: 2, 3>, padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>, groups = 2 : i64} : tensor<?x4x9x7xf64>, tensor<6x2x3x2xf64> -> tensor<?x6x4x2xf64>
  return %y : tensor<?x6x4x2xf64>
}

// -----

// CHECK-LABEL: func.func @conv2d_backward_input
// CHECK: rlx.conv2d_backward_input %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32> -> tensor<2x3x7x8xf32>
// CHECK: rlx.conv2d_backward_input %{{.*}}, %{{.*}} {groups = 3 : i64} : tensor<?x?x?x?xf32>, tensor<6x1x3x3xf32> -> tensor<?x3x?x?xf32>
func.func @conv2d_backward_input(%dy: tensor<2x4x4x4xf32>, %w: tensor<4x3x3x3xf32>, %dyd: tensor<?x?x?x?xf32>, %wd: tensor<6x1x3x3xf32>) -> (tensor<2x3x7x8xf32>, tensor<?x3x?x?xf32>) {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x4x4x4xf32>, tensor<4x3x3x3xf32> -> tensor<2x3x7x8xf32>
  %dxd = rlx.conv2d_backward_input %dyd, %wd {groups = 3 : i64} : tensor<?x?x?x?xf32>, tensor<6x1x3x3xf32> -> tensor<?x3x?x?xf32>
  return %dx, %dxd : tensor<2x3x7x8xf32>, tensor<?x3x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @conv2d_backward_weight
// CHECK: rlx.conv2d_backward_weight %{{.*}}, %{{.*}} {dilation = array<i64: 2, 2>, groups = 4 : i64} : tensor<?x4x7x5xf64>, tensor<?x8x3x1xf64> -> tensor<8x1x3x3xf64>
func.func @conv2d_backward_weight(%x: tensor<?x4x7x5xf64>, %dy: tensor<?x8x3x1xf64>) -> tensor<8x1x3x3xf64> {
  %dw = rlx.conv2d_backward_weight %x, %dy {dilation = array<i64: 2, 2>, groups = 4 : i64} : tensor<?x4x7x5xf64>, tensor<?x8x3x1xf64> -> tensor<8x1x3x3xf64>
  return %dw : tensor<8x1x3x3xf64>
}

// -----

// Generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x5x5xf32>
// CHECK: rlx.conv2d_backward_weight %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : tensor<1x2x5x5xf32>, tensor<1x3x5x5xf32> -> tensor<3x2x3x3xf32>
// CHECK: rlx.conv2d_backward_input %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32> -> tensor<1x2x5x5xf32>
func.func @generic(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>, %dy: tensor<1x3x5x5xf32>) -> (tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32>, tensor<1x2x5x5xf32>) {
  %y = "rlx.conv2d"(%x, %w) <{stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64}> : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  %dw = "rlx.conv2d_backward_weight"(%x, %dy) <{padding = array<i64: 1, 1>}> : (tensor<1x2x5x5xf32>, tensor<1x3x5x5xf32>) -> tensor<3x2x3x3xf32>
  %dx = "rlx.conv2d_backward_input"(%dy, %w) <{padding = array<i64: 1, 1>}> : (tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %y, %dw, %dx : tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32>, tensor<1x2x5x5xf32>
}

// -----

// The bias gradient: no geometry, any dim dynamic.
// CHECK-LABEL: func.func @backward_bias
// CHECK: rlx.conv2d_backward_bias %{{.*}} : tensor<?x16x4x4xf32> -> tensor<16xf32>
// CHECK: rlx.conv2d_backward_bias %{{.*}} : tensor<?x?x?x?xf64> -> tensor<?xf64>
func.func @backward_bias(%dy: tensor<?x16x4x4xf32>, %dz: tensor<?x?x?x?xf64>) -> (tensor<16xf32>, tensor<?xf64>) {
  %db = rlx.conv2d_backward_bias %dy : tensor<?x16x4x4xf32> -> tensor<16xf32>
  %dc = "rlx.conv2d_backward_bias"(%dz) : (tensor<?x?x?x?xf64>) -> tensor<?xf64>
  return %db, %dc : tensor<16xf32>, tensor<?xf64>
}
