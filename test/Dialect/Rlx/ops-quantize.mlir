// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @fake_quantize
// CHECK: rlx.fake_quantize %{{.*}} {bits = 8 : i64} : tensor<?x16xf32> -> tensor<?x16xf32>
// CHECK: rlx.fake_quantize %{{.*}} {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<tanh>} : tensor<?x16xf32> -> tensor<?x16xf32>
// CHECK: rlx.fake_quantize_backward %{{.*}}, %{{.*}} {axis = -1 : i64, bits = 2 : i64, ste = #rlx.ste<hard_tanh>} : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
// CHECK: rlx.fake_quantize_backward %{{.*}}, %{{.*}} {bits = 8 : i64, ste = #rlx.ste<clipped_identity>} : tensor<?x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
func.func @fake_quantize(%x: tensor<?x16xf32>, %dy: tensor<?x16xf32>, %dz: tensor<4x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<4x16xf32>) {
  %y = rlx.fake_quantize %x {bits = 8 : i64, ste = #rlx.ste<identity>} : tensor<?x16xf32> -> tensor<?x16xf32>
  %y2 = rlx.fake_quantize %x {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<tanh>} : tensor<?x16xf32> -> tensor<?x16xf32>
  %dx = rlx.fake_quantize_backward %x, %dy {axis = -1 : i64, bits = 2 : i64, ste = #rlx.ste<hard_tanh>} : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  %dx2 = rlx.fake_quantize_backward %x, %dz {bits = 8 : i64, ste = #rlx.ste<clipped_identity>} : tensor<?x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  return %y, %y2, %dx, %dx2 : tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x16xf32>, tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @static_f64
// CHECK: rlx.fake_quantize %{{.*}} {axis = 0 : i64, bits = 2 : i64, ste = #rlx.ste<clipped_identity>} : tensor<3x5x7xf64> -> tensor<3x5x7xf64>
// CHECK: rlx.fake_quantize_backward %{{.*}}, %{{.*}} {bits = 4 : i64} : tensor<3x5x7xf64>, tensor<3x5x7xf64> -> tensor<3x5x7xf64>
func.func @static_f64(%x: tensor<3x5x7xf64>, %dy: tensor<3x5x7xf64>) -> (tensor<3x5x7xf64>, tensor<3x5x7xf64>) {
  %y = rlx.fake_quantize %x {axis = 0 : i64, bits = 2 : i64, ste = #rlx.ste<clipped_identity>} : tensor<3x5x7xf64> -> tensor<3x5x7xf64>
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 4 : i64} : tensor<3x5x7xf64>, tensor<3x5x7xf64> -> tensor<3x5x7xf64>
  return %y, %dx : tensor<3x5x7xf64>, tensor<3x5x7xf64>
}

// -----

// Generic form with the contract's attribute names.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.fake_quantize %{{.*}} {axis = 1 : i64, bits = 8 : i64, ste = #rlx.ste<tanh>} : tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: rlx.fake_quantize_backward %{{.*}}, %{{.*}} {bits = 4 : i64, ste = #rlx.ste<hard_tanh>} : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
func.func @generic(%x: tensor<?x?xf32>, %dy: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %y = "rlx.fake_quantize"(%x) <{axis = 1 : i64, bits = 8 : i64, ste = #rlx.ste<tanh>}> : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %dx = "rlx.fake_quantize_backward"(%x, %dy) <{bits = 4 : i64, ste = #rlx.ste<hard_tanh>}> : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y, %dx : tensor<?x?xf32>, tensor<?x?xf32>
}
