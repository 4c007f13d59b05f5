// RUN: rlx-opt %s --split-input-file | rlx-opt --split-input-file | FileCheck %s
// RUN: rlx-opt %s --split-input-file --mlir-print-op-generic | rlx-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK: rlx.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<?x16xf32>
// CHECK: rlx.layer_norm_backward_input %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, eps = 1.000000e-03 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK: rlx.layer_norm_backward_gamma %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<4x16xf32> -> tensor<16xf32>
// CHECK: rlx.layer_norm_backward_beta %{{.*}} : tensor<4x16xf32> -> tensor<?xf32>
func.func @layer_norm(%x: tensor<?x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>, %dy: tensor<4x16xf32>)
    -> (tensor<?x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<?xf32>) {
  %y = rlx.layer_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  %dx = rlx.layer_norm_backward_input %x, %g, %dy {axis = 1 : i64, eps = 1.0e-3 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %dg = rlx.layer_norm_backward_gamma %x, %dy {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<?x16xf32>, tensor<4x16xf32> -> tensor<16xf32>
  %db = rlx.layer_norm_backward_beta %dy {axis = -1 : i64} : tensor<4x16xf32> -> tensor<?xf32>
  return %y, %dx, %dg, %db : tensor<?x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<?xf32>
}

// -----

// Rank 1, rank 3 with dynamic leading dims, dynamic D.
// CHECK-LABEL: func.func @layer_norm_ranks
// CHECK: rlx.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64} : tensor<7xf64>, tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
// CHECK: rlx.layer_norm_backward_input %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64} : tensor<?x?x?xf64>, tensor<?xf64>, tensor<?x?x?xf64> -> tensor<?x?x?xf64>
func.func @layer_norm_ranks(%x1: tensor<7xf64>, %g1: tensor<7xf64>, %x3: tensor<?x?x?xf64>, %g: tensor<?xf64>)
    -> (tensor<7xf64>, tensor<?x?x?xf64>) {
  %y = rlx.layer_norm %x1, %g1, %g1 {axis = 0 : i64, eps = 1.0e-5 : f32} : tensor<7xf64>, tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %dx = rlx.layer_norm_backward_input %x3, %g, %x3 {axis = 2 : i64, eps = 1.0e-5 : f32} : tensor<?x?x?xf64>, tensor<?xf64>, tensor<?x?x?xf64> -> tensor<?x?x?xf64>
  return %y, %dx : tensor<7xf64>, tensor<?x?x?xf64>
}

// -----

// CHECK-LABEL: func.func @rms_norm
// CHECK: rlx.rms_norm %{{.*}}, %{{.*}}, %{{.*}} {eps = 9.99999997E-7 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x?x8xf32>
// CHECK: rlx.rms_norm_backward_input %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eps = 9.99999997E-7 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x?x8xf32> -> tensor<2x?x8xf32>
// CHECK: rlx.rms_norm_backward_gamma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {axis = 2 : i64, eps = 9.99999997E-7 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x?x8xf32> -> tensor<8xf32>
// CHECK: rlx.rms_norm_backward_beta %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eps = 0.000000e+00 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x?x8xf32> -> tensor<8xf32>
func.func @rms_norm(%x: tensor<2x?x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %dy: tensor<2x?x8xf32>)
    -> (tensor<2x?x8xf32>, tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %y = rlx.rms_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x?x8xf32>
  %dx = rlx.rms_norm_backward_input %x, %g, %b, %dy {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x?x8xf32> -> tensor<2x?x8xf32>
  %dg = rlx.rms_norm_backward_gamma %x, %g, %b, %dy {axis = 2 : i64, eps = 1.0e-6 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x?x8xf32> -> tensor<8xf32>
  %db = rlx.rms_norm_backward_beta %x, %g, %b, %dy {axis = -1 : i64, eps = 0.0 : f32} : tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x?x8xf32> -> tensor<8xf32>
  return %y, %dx, %dg, %db : tensor<2x?x8xf32>, tensor<2x?x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @group_norm
// CHECK: rlx.group_norm %{{.*}}, %{{.*}}, %{{.*}} {num_groups = 3 : i64} : tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32> -> tensor<?x6x5x3xf32>
// CHECK: rlx.group_norm_backward_input %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {num_groups = 3 : i64} : tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<?x6x5x3xf32> -> tensor<?x6x5x3xf32>
// CHECK: rlx.group_norm_backward_gamma %{{.*}}, %{{.*}} {num_groups = 3 : i64} : tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32> -> tensor<6xf32>
// CHECK: rlx.group_norm_backward_beta %{{.*}}, %{{.*}} {num_groups = 3 : i64} : tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32> -> tensor<6xf32>
func.func @group_norm(%x: tensor<?x6x5x3xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>, %dy: tensor<?x6x5x3xf32>)
    -> (tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>) {
  %y = rlx.group_norm %x, %g, %b {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32> -> tensor<?x6x5x3xf32>
  %dx = rlx.group_norm_backward_input %x, %g, %b, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<?x6x5x3xf32> -> tensor<?x6x5x3xf32>
  %dg = rlx.group_norm_backward_gamma %x, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32> -> tensor<6xf32>
  %db = rlx.group_norm_backward_beta %x, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32> -> tensor<6xf32>
  return %y, %dx, %dg, %db : tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>
}

// -----

// Fully dynamic group norm (C checked at run time).
// CHECK-LABEL: func.func @group_norm_dynamic
// CHECK: rlx.group_norm_backward_input %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {num_groups = 4 : i64} : tensor<?x?x?x?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?x?x?x?xf64> -> tensor<?x?x?x?xf64>
func.func @group_norm_dynamic(%x: tensor<?x?x?x?xf64>, %g: tensor<?xf64>) -> tensor<?x?x?x?xf64> {
  %dx = rlx.group_norm_backward_input %x, %g, %g, %x {num_groups = 4 : i64, eps = 1.0e-5 : f32} : tensor<?x?x?x?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?x?x?x?xf64> -> tensor<?x?x?x?xf64>
  return %dx : tensor<?x?x?x?xf64>
}

// -----

// Generic form with the contract's attribute names; absent axis/eps default
// to -1 and 1e-5.
// CHECK-LABEL: func.func @generic
// CHECK: rlx.layer_norm_backward_input %{{.*}}, %{{.*}}, %{{.*}} {eps = 1.000000e-03 : f32} : tensor<3x5xf32>, tensor<5xf32>, tensor<3x5xf32> -> tensor<3x5xf32>
// CHECK: rlx.group_norm_backward_gamma %{{.*}}, %{{.*}} {num_groups = 2 : i64} : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32> -> tensor<4xf32>
// CHECK: rlx.rms_norm %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32> -> tensor<3x5xf32>
func.func @generic(%x: tensor<3x5xf32>, %g: tensor<5xf32>, %x4: tensor<1x4x2x2xf32>) -> (tensor<3x5xf32>, tensor<4xf32>, tensor<3x5xf32>) {
  %dx = "rlx.layer_norm_backward_input"(%x, %g, %x) <{axis = -1 : i64, eps = 1.0e-3 : f32}> : (tensor<3x5xf32>, tensor<5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %dg = "rlx.group_norm_backward_gamma"(%x4, %x4) <{num_groups = 2 : i64, eps = 1.0e-5 : f32}> : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<4xf32>
  %y = "rlx.rms_norm"(%x, %g, %g) : (tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %dx, %dg, %y : tensor<3x5xf32>, tensor<4xf32>, tensor<3x5xf32>
}

// -----

// Any finite eps is accepted, negative ones too (PyTorch's OpInfo samples use
// -0.5; the result is defined where var + eps > 0).
// CHECK-LABEL: func.func @negative_eps
// CHECK: rlx.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {eps = -5.000000e-01 : f32}
// CHECK: rlx.group_norm_backward_input %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eps = -2.500000e-01 : f32, num_groups = 2 : i64}
func.func @negative_eps(%x: tensor<3x5xf32>, %g: tensor<5xf32>, %x4: tensor<1x4x2x2xf32>, %g4: tensor<4xf32>) -> (tensor<3x5xf32>, tensor<1x4x2x2xf32>) {
  %y = rlx.layer_norm %x, %g, %g {axis = -1 : i64, eps = -0.5 : f32} : tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32> -> tensor<3x5xf32>
  %dx = rlx.group_norm_backward_input %x4, %g4, %g4, %x4 {num_groups = 2 : i64, eps = -0.25 : f32} : tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4x2x2xf32> -> tensor<1x4x2x2xf32>
  return %y, %dx : tensor<3x5xf32>, tensor<1x4x2x2xf32>
}
