// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @cumsum
// CHECK: rlx.cumsum %{{.*}} {axis = 1 : i64} : tensor<?x16xf32> -> tensor<?x16xf32>
// CHECK: rlx.cumsum_backward %{{.*}} {axis = -1 : i64, exclusive} : tensor<4x16xf32> -> tensor<4x16xf32>
func.func @cumsum(%x: tensor<?x16xf32>, %dy: tensor<4x16xf32>) -> (tensor<?x16xf32>, tensor<4x16xf32>) {
  %y = rlx.cumsum %x {axis = 1 : i64} : tensor<?x16xf32> -> tensor<?x16xf32>
  %dx = rlx.cumsum_backward %dy {axis = -1 : i64, exclusive} : tensor<4x16xf32> -> tensor<4x16xf32>
  return %y, %dx : tensor<?x16xf32>, tensor<4x16xf32>
}

// -----

// Static shapes, f64, exclusive forward, a result more static than the operand.
// CHECK-LABEL: func.func @cumsum_static
// CHECK: rlx.cumsum %{{.*}} {axis = 0 : i64, exclusive} : tensor<3x5xf64> -> tensor<3x5xf64>
// CHECK: rlx.cumsum_backward %{{.*}} {axis = 0 : i64} : tensor<?x5xf64> -> tensor<3x5xf64>
func.func @cumsum_static(%x: tensor<3x5xf64>, %dy: tensor<?x5xf64>) -> (tensor<3x5xf64>, tensor<3x5xf64>) {
  %y = rlx.cumsum %x {axis = 0 : i64, exclusive} : tensor<3x5xf64> -> tensor<3x5xf64>
  %dx = rlx.cumsum_backward %dy {axis = 0 : i64} : tensor<?x5xf64> -> tensor<3x5xf64>
  return %y, %dx : tensor<3x5xf64>, tensor<3x5xf64>
}

// -----

// Generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.cumsum %{{.*}} {axis = 0 : i64, exclusive} : tensor<?xf32> -> tensor<?xf32>
// CHECK: rlx.cumsum_backward %{{.*}} {axis = 2 : i64} : tensor<2x?x?xf32> -> tensor<2x?x?xf32>
func.func @generic(%x: tensor<?xf32>, %dy: tensor<2x?x?xf32>) -> (tensor<?xf32>, tensor<2x?x?xf32>) {
  %y = "rlx.cumsum"(%x) <{axis = 0 : i64, exclusive}> : (tensor<?xf32>) -> tensor<?xf32>
  %dx = "rlx.cumsum_backward"(%dy) <{axis = 2 : i64}> : (tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  return %y, %dx : tensor<?xf32>, tensor<2x?x?xf32>
}
