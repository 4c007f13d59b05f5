// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK: rlx.softmax %{{.*}} {axis = 1 : i64} : tensor<?x10x7xf32> -> tensor<?x10x7xf32>
// CHECK: rlx.softmax %{{.*}} : tensor<4x5xf64> -> tensor<4x5xf64>
// CHECK: rlx.softmax %{{.*}} {axis = 0 : i64} : tensor<?x?xf64> -> tensor<3x?xf64>
func.func @softmax(%x: tensor<?x10x7xf32>, %z: tensor<4x5xf64>, %w: tensor<?x?xf64>) -> (tensor<?x10x7xf32>, tensor<4x5xf64>, tensor<3x?xf64>) {
  %y = rlx.softmax %x {axis = 1 : i64} : tensor<?x10x7xf32> -> tensor<?x10x7xf32>
  %y2 = rlx.softmax %z {axis = -1 : i64} : tensor<4x5xf64> -> tensor<4x5xf64>
  %y3 = rlx.softmax %w {axis = 0 : i64} : tensor<?x?xf64> -> tensor<3x?xf64>
  return %y, %y2, %y3 : tensor<?x10x7xf32>, tensor<4x5xf64>, tensor<3x?xf64>
}

// -----

// CHECK-LABEL: func.func @cross_entropy
// CHECK: rlx.softmax_cross_entropy %{{.*}}, %{{.*}} : tensor<?x10xf32>, tensor<?xi64> -> tensor<?xf32>
// CHECK: rlx.softmax_cross_entropy_backward %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x10xf32>, tensor<?xi64>, tensor<?xf32> -> tensor<?x10xf32>
func.func @cross_entropy(%l: tensor<?x10xf32>, %t: tensor<?xi64>, %d: tensor<?xf32>) -> (tensor<?xf32>, tensor<?x10xf32>) {
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<?x10xf32>, tensor<?xi64> -> tensor<?xf32>
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<?x10xf32>, tensor<?xi64>, tensor<?xf32> -> tensor<?x10xf32>
  return %loss, %dl : tensor<?xf32>, tensor<?x10xf32>
}

// -----

// CHECK-LABEL: func.func @cross_entropy_static
// CHECK: rlx.softmax_cross_entropy %{{.*}}, %{{.*}} : tensor<3x5xf64>, tensor<3xi32> -> tensor<3xf64>
// CHECK: rlx.softmax_cross_entropy_backward %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x5xf64>, tensor<3xi32>, tensor<3xf64> -> tensor<3x5xf64>
func.func @cross_entropy_static(%l: tensor<3x5xf64>, %t: tensor<3xi32>, %d: tensor<3xf64>) -> (tensor<3xf64>, tensor<3x5xf64>) {
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<3x5xf64>, tensor<3xi32> -> tensor<3xf64>
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<3x5xf64>, tensor<3xi32>, tensor<3xf64> -> tensor<3x5xf64>
  return %loss, %dl : tensor<3xf64>, tensor<3x5xf64>
}

// -----

// Generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.softmax %{{.*}} {axis = 0 : i64} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.softmax_cross_entropy_backward %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x4xf32>, tensor<?xi32>, tensor<?xf32> -> tensor<?x4xf32>
func.func @generic(%x: tensor<?x4xf32>, %t: tensor<?xi32>, %d: tensor<?xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %y = "rlx.softmax"(%x) <{axis = 0 : i64}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %dl = "rlx.softmax_cross_entropy_backward"(%x, %t, %d) : (tensor<?x4xf32>, tensor<?xi32>, tensor<?xf32>) -> tensor<?x4xf32>
  return %y, %dl : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_gradients
// CHECK: rlx.log_softmax %{{.*}} : tensor<?x10xf32> -> tensor<?x10xf32>
// CHECK: rlx.softmax_backward %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<?x10xf32>, tensor<4x10xf32> -> tensor<?x10xf32>
// CHECK: rlx.log_softmax_backward %{{.*}}, %{{.*}} : tensor<?x10xf32>, tensor<?x10xf32> -> tensor<4x?xf32>
func.func @softmax_gradients(%x: tensor<?x10xf32>, %dy: tensor<4x10xf32>) -> (tensor<?x10xf32>, tensor<?x10xf32>, tensor<4x?xf32>) {
  %y = rlx.log_softmax %x {axis = -1 : i64} : tensor<?x10xf32> -> tensor<?x10xf32>
  %dx = rlx.softmax_backward %x, %dy {axis = 0 : i64} : tensor<?x10xf32>, tensor<4x10xf32> -> tensor<?x10xf32>
  %dz = rlx.log_softmax_backward %x, %y : tensor<?x10xf32>, tensor<?x10xf32> -> tensor<4x?xf32>
  return %y, %dx, %dz : tensor<?x10xf32>, tensor<?x10xf32>, tensor<4x?xf32>
}

// -----

// Generic form: the attribute is `axis`, default -1.
// CHECK-LABEL: func.func @softmax_gradients_generic
// CHECK: rlx.log_softmax %{{.*}} {axis = 0 : i64} : tensor<3x4xf64> -> tensor<3x4xf64>
// CHECK: rlx.softmax_backward %{{.*}}, %{{.*}} : tensor<3x4xf64>, tensor<3x4xf64> -> tensor<3x4xf64>
// CHECK: rlx.log_softmax_backward %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<3x4xf64>, tensor<3x4xf64> -> tensor<3x4xf64>
func.func @softmax_gradients_generic(%x: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) {
  %y = "rlx.log_softmax"(%x) <{axis = 0 : i64}> : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %dx = "rlx.softmax_backward"(%x, %y) : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %dz = "rlx.log_softmax_backward"(%x, %y) <{axis = 1 : i64}> : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %y, %dx, %dz : tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>
}
