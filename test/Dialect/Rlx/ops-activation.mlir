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

// -----

// The parameterised kinds (f64 attributes named as in PyTorch; absent ones
// take PyTorch's defaults) and the piecewise kinds.
// CHECK-LABEL: func.func @parameterised
// CHECK: rlx.activation %{{.*}} {kind = #rlx.activation<hardtanh>, max_val = 2.500000e+00 : f64, min_val = -5.000000e-01 : f64} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation %{{.*}} {beta = 2.000000e+00 : f64, kind = #rlx.activation<softplus>, threshold = 1.000000e+01 : f64} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation_backward %{{.*}}, %{{.*}} {alpha = 1.500000e+00 : f64, kind = #rlx.activation<elu>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation_backward %{{.*}}, %{{.*}} {kind = #rlx.activation<leaky_relu>, negative_slope = 2.000000e-01 : f64} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation %{{.*}} {kind = #rlx.activation<relu6>} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation %{{.*}} {kind = #rlx.activation<hardswish>} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation_backward %{{.*}}, %{{.*}} {kind = #rlx.activation<hardsigmoid>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation_backward %{{.*}}, %{{.*}} {kind = #rlx.activation<mish>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.activation %{{.*}} {kind = #rlx.activation<elu>} : tensor<?x4xf32> -> tensor<?x4xf32>
func.func @parameterised(%x: tensor<?x4xf32>, %dy: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %a = rlx.activation %x {kind = #rlx.activation<hardtanh>, min_val = -0.5, max_val = 2.5} : tensor<?x4xf32> -> tensor<?x4xf32>
  %b = rlx.activation %x {kind = #rlx.activation<softplus>, beta = 2.0, threshold = 10.0} : tensor<?x4xf32> -> tensor<?x4xf32>
  %c = rlx.activation_backward %x, %dy {kind = #rlx.activation<elu>, alpha = 1.5} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %d = rlx.activation_backward %x, %dy {kind = #rlx.activation<leaky_relu>, negative_slope = 0.2} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %e = rlx.activation %x {kind = #rlx.activation<relu6>} : tensor<?x4xf32> -> tensor<?x4xf32>
  %f = rlx.activation %x {kind = #rlx.activation<hardswish>} : tensor<?x4xf32> -> tensor<?x4xf32>
  %g = rlx.activation_backward %x, %dy {kind = #rlx.activation<hardsigmoid>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %h = rlx.activation_backward %x, %dy {kind = #rlx.activation<mish>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %i = rlx.activation %x {kind = #rlx.activation<elu>} : tensor<?x4xf32> -> tensor<?x4xf32>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// Generic form: the parameters are properties of the op.
// CHECK-LABEL: func.func @parameterised_generic
// CHECK: rlx.activation_backward %{{.*}}, %{{.*}} {kind = #rlx.activation<hardtanh>, max_val = 0.000000e+00 : f64} : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
func.func @parameterised_generic(%x: tensor<3xf64>) -> tensor<3xf64> {
  %dx = "rlx.activation_backward"(%x, %x) <{kind = #rlx.activation<hardtanh>, max_val = 0.0 : f64}> : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %dx : tensor<3xf64>
}
