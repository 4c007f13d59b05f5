// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @relu
// CHECK: rlx.relu %{{.*}} : tensor<?x16xf32> -> tensor<?x16xf32>
// CHECK: rlx.relu_backward %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
func.func @relu(%x: tensor<?x16xf32>, %dy: tensor<4x16xf32>) -> (tensor<?x16xf32>, tensor<4x16xf32>) {
  %y = rlx.relu %x : tensor<?x16xf32> -> tensor<?x16xf32>
  %dx = rlx.relu_backward %x, %dy : tensor<?x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  return %y, %dx : tensor<?x16xf32>, tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @activation
// CHECK: rlx.activation %{{.*}} {kind = #rlx.activation<gelu_tanh>} : tensor<2x3xf64> -> tensor<2x3xf64>
// CHECK: rlx.activation_backward %{{.*}}, %{{.*}} {kind = #rlx.activation<rsqrt>} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
func.func @activation(%x: tensor<2x3xf64>, %dy: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>) {
  %y = rlx.activation %x {kind = #rlx.activation<gelu_tanh>} : tensor<2x3xf64> -> tensor<2x3xf64>
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<rsqrt>} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %y, %dx : tensor<2x3xf64>, tensor<2x3xf64>
}

// -----

// Generic form with the contract's attribute name.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.activation_backward %{{.*}}, %{{.*}} {kind = #rlx.activation<atan>} : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
func.func @generic(%x: tensor<?xf32>, %dy: tensor<?xf32>) -> tensor<?xf32> {
  %dx = "rlx.activation_backward"(%x, %dy) <{kind = #rlx.activation<atan>}> : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %dx : tensor<?xf32>
}
