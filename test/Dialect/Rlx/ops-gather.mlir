// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// Embedding lookup: axis 0, 2-D i32 indices, dynamic batch.
// CHECK-LABEL: func.func @embedding
// CHECK: rlx.gather %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<1000x64xf32>, tensor<?x16xi32> -> tensor<?x16x64xf32>
// CHECK: rlx.gather_backward %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
func.func @embedding(%t: tensor<1000x64xf32>, %ids: tensor<?x16xi32>, %dy: tensor<?x16x64xf32>) -> (tensor<?x16x64xf32>, tensor<1000x64xf32>) {
  %y = rlx.gather %t, %ids {axis = 0 : i64} : tensor<1000x64xf32>, tensor<?x16xi32> -> tensor<?x16x64xf32>
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
  return %y, %dt : tensor<?x16x64xf32>, tensor<1000x64xf32>
}

// -----

// Middle axis, i64 indices, negative axis, rank-0 indices (drops the axis).
// CHECK-LABEL: func.func @middle
// CHECK: rlx.gather %{{.*}}, %{{.*}} {axis = -2 : i64} : tensor<2x7x3xf64>, tensor<5xi64> -> tensor<2x5x3xf64>
// CHECK: rlx.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<2x7x3xf64>, tensor<i64> -> tensor<2x3xf64>
// CHECK: rlx.gather_backward %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<2x3xf64>, tensor<i64> -> tensor<2x7x3xf64>
func.func @middle(%t: tensor<2x7x3xf64>, %ids: tensor<5xi64>, %id: tensor<i64>, %dy: tensor<2x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xf64>, tensor<2x7x3xf64>) {
  %y = rlx.gather %t, %ids {axis = -2 : i64} : tensor<2x7x3xf64>, tensor<5xi64> -> tensor<2x5x3xf64>
  %z = rlx.gather %t, %id {axis = 1 : i64} : tensor<2x7x3xf64>, tensor<i64> -> tensor<2x3xf64>
  %dt = rlx.gather_backward %dy, %id {axis = 1 : i64} : tensor<2x3xf64>, tensor<i64> -> tensor<2x7x3xf64>
  return %y, %z, %dt : tensor<2x5x3xf64>, tensor<2x3xf64>, tensor<2x7x3xf64>
}

// -----

// Generic form with the contract's attribute name; every dim dynamic.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.gather %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<?x?xf32>, tensor<?xi64> -> tensor<?x?xf32>
// CHECK: rlx.gather_backward %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<?x?xf32>, tensor<?xi64> -> tensor<?x?xf32>
func.func @generic(%t: tensor<?x?xf32>, %ids: tensor<?xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %y = "rlx.gather"(%t, %ids) <{axis = 1 : i64}> : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %dt = "rlx.gather_backward"(%y, %ids) <{axis = 1 : i64}> : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %y, %dt : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// PyTorch's embedding_backward options: padding_idx (negative counts from
// the end) and scale_grad_by_freq.
// CHECK-LABEL: func.func @embedding_options
// CHECK: rlx.gather_backward %{{.*}}, %{{.*}} {axis = 0 : i64, padding_idx = 0 : i64} : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
// CHECK: rlx.gather_backward %{{.*}}, %{{.*}} {axis = 0 : i64, scale_grad_by_freq} : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
// CHECK: rlx.gather_backward %{{.*}}, %{{.*}} {axis = 0 : i64, padding_idx = -1 : i64, scale_grad_by_freq} : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
func.func @embedding_options(%ids: tensor<?x16xi32>, %dy: tensor<?x16x64xf32>) -> (tensor<1000x64xf32>, tensor<1000x64xf32>, tensor<1000x64xf32>) {
  %a = rlx.gather_backward %dy, %ids {axis = 0 : i64, padding_idx = 0 : i64} : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
  %b = rlx.gather_backward %dy, %ids {axis = 0 : i64, scale_grad_by_freq} : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
  %c = "rlx.gather_backward"(%dy, %ids) <{axis = 0 : i64, padding_idx = -1 : i64, scale_grad_by_freq}> : (tensor<?x16x64xf32>, tensor<?x16xi32>) -> tensor<1000x64xf32>
  return %a, %b, %c : tensor<1000x64xf32>, tensor<1000x64xf32>, tensor<1000x64xf32>
}
