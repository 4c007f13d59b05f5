// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @rope
// CHECK: rlx.rope %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 64 : i64, n_rot = 32 : i64} : tensor<?x128x256xf32>, tensor<128x32xf32>, tensor<128x32xf32> -> tensor<?x128x256xf32>
// CHECK: rlx.rope_backward %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 64 : i64, n_rot = 64 : i64} : tensor<?x128x256xf32>, tensor<128x32xf32>, tensor<128x32xf32> -> tensor<?x128x256xf32>
func.func @rope(%x: tensor<?x128x256xf32>, %c: tensor<128x32xf32>, %s: tensor<128x32xf32>) -> (tensor<?x128x256xf32>, tensor<?x128x256xf32>) {
  %y = rlx.rope %x, %c, %s {head_dim = 64 : i64, n_rot = 32 : i64} : tensor<?x128x256xf32>, tensor<128x32xf32>, tensor<128x32xf32> -> tensor<?x128x256xf32>
  %dx = rlx.rope_backward %y, %c, %s {head_dim = 64 : i64, n_rot = 64 : i64} : tensor<?x128x256xf32>, tensor<128x32xf32>, tensor<128x32xf32> -> tensor<?x128x256xf32>
  return %y, %dx : tensor<?x128x256xf32>, tensor<?x128x256xf32>
}

// -----

// Rank 2 ([S, H*D]) and fully dynamic shapes.
// CHECK-LABEL: func.func @rope_dynamic
// CHECK: rlx.rope %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 8 : i64, n_rot = 4 : i64} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x4xf64> -> tensor<?x?xf64>
// CHECK: rlx.rope_backward %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 8 : i64, n_rot = 8 : i64} : tensor<5x24xf64>, tensor<5x4xf64>, tensor<5x4xf64> -> tensor<5x24xf64>
func.func @rope_dynamic(%x: tensor<?x?xf64>, %c: tensor<?x?xf64>, %s: tensor<?x4xf64>, %dy: tensor<5x24xf64>, %c2: tensor<5x4xf64>) -> (tensor<?x?xf64>, tensor<5x24xf64>) {
  %y = rlx.rope %x, %c, %s {head_dim = 8 : i64, n_rot = 4 : i64} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x4xf64> -> tensor<?x?xf64>
  %dx = rlx.rope_backward %dy, %c2, %c2 {head_dim = 8 : i64, n_rot = 8 : i64} : tensor<5x24xf64>, tensor<5x4xf64>, tensor<5x4xf64> -> tensor<5x24xf64>
  return %y, %dx : tensor<?x?xf64>, tensor<5x24xf64>
}

// -----

// Generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.rope_backward %{{.*}}, %{{.*}}, %{{.*}} {head_dim = 4 : i64, n_rot = 2 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
func.func @generic(%dy: tensor<2x3x8xf32>, %c: tensor<3x2xf32>, %s: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  %dx = "rlx.rope_backward"(%dy, %c, %s) <{head_dim = 4 : i64, n_rot = 2 : i64}> : (tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<2x3x8xf32>
  return %dx : tensor<2x3x8xf32>
}
