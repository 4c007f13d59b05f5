// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s

// relu'(x) * dy = select(x > 0, dy, 0): one elementwise generic.
// CHECK-LABEL: func.func @relu_backward
// CHECK-SAME: (%[[X:.+]]: tensor<?x16xf32>, %[[DY:.+]]: tensor<?x16xf32>)
// CHECK: %[[E:.+]] = tensor.empty
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[DY]] : {{.*}}) outs(%[[E]] : tensor<?x16xf32>)
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK-NOT: rlx.
// CHECK: return %[[G]]
func.func @relu_backward(%x: tensor<?x16xf32>, %dy: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %dx = rlx.relu_backward %x, %dy : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return %dx : tensor<?x16xf32>
}

// -----

// tanh'(x) * dy = (1 - tanh(x)^2) * dy.
// CHECK-LABEL: func.func @tanh_backward
// CHECK: linalg.generic
// CHECK: %[[T:.+]] = math.tanh
// CHECK: %[[T2:.+]] = arith.mulf %[[T]], %[[T]]
// CHECK: %[[D:.+]] = arith.subf %{{.*}}, %[[T2]]
// CHECK: arith.mulf %[[D]]
func.func @tanh_backward(%x: tensor<3x5xf64>, %dy: tensor<3x5xf64>) -> tensor<3x5xf64> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<tanh>} : tensor<3x5xf64>, tensor<3x5xf64> -> tensor<3x5xf64>
  return %dx : tensor<3x5xf64>
}

// -----

// A result type more static than the operands gets a tensor.cast.
// CHECK-LABEL: func.func @cast_result
// CHECK: %[[G:.+]] = linalg.generic
// CHECK: tensor.cast %[[G]] : tensor<?xf32> to tensor<8xf32>
func.func @cast_result(%x: tensor<?xf32>, %dy: tensor<?xf32>) -> tensor<8xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<exp>} : tensor<?xf32>, tensor<?xf32> -> tensor<8xf32>
  return %dx : tensor<8xf32>
}

// -----

// A parameterised kind is still one generic; its parameters are constants.
// leaky_relu'(x) = 1 where x > 0, else negative_slope.
// CHECK-LABEL: func.func @leaky_relu_backward
// CHECK-DAG: %[[SLOPE:.+]] = arith.constant 2.000000e-01 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[DX:.+]] = linalg.generic
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[DV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[GT:.+]] = arith.cmpf ogt, %[[XV]], %{{.+}} : f32
// CHECK-NEXT: %[[D:.+]] = arith.select %[[GT]], %[[ONE]], %[[SLOPE]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[DV]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[DX]]
func.func @leaky_relu_backward(%x: tensor<?x4xf32>, %dy: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<leaky_relu>, negative_slope = 0.2} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %dx : tensor<?x4xf32>
}

// -----

// gelu'(x) * dy in f32: Phi(x) + x phi(x) with one exp(-x^2/2) for both
// terms, erf's tail polynomial (Abramowitz and Stegun 7.1.26) in Horner
// fmas, the sign of x picking Phi's side, and the density term added by one
// fma after the select.
// CHECK-LABEL: func.func @gelu_backward_f32
// CHECK: linalg.generic
// CHECK: %[[E:.+]] = math.exp
// CHECK-NOT: math.exp
// CHECK: %[[A:.+]] = math.absf
// CHECK: %[[D:.+]] = math.fma %{{.*}}, %[[A]], %{{.*}}
// CHECK: %[[T:.+]] = arith.divf %{{.*}}, %[[D]]
// CHECK-COUNT-4: math.fma %{{.*}}, %[[T]], %{{.*}}
// CHECK: %[[TAIL:.+]] = arith.mulf %[[E]], %{{.*}}
// CHECK: %[[NEG:.+]] = arith.cmpf olt
// CHECK: %[[PHI:.+]] = arith.select %[[NEG]], %[[TAIL]], %{{.*}}
// CHECK: %[[G:.+]] = math.fma %[[E]], %{{.*}}, %[[PHI]]
// CHECK: arith.mulf %[[G]]
// CHECK-NOT: math.erf
func.func @gelu_backward_f32(%x: tensor<?x16xf32>, %dy: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<gelu>} : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return %dx : tensor<?x16xf32>
}
