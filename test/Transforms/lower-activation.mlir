// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// gelu(x) = x * (1 + erf(x / sqrt 2)) / 2: one elementwise generic. In f32,
// erf(|z|) = 1 - t p(t) exp(-z^2) with t = 1 / (1 + 0.3275911 |z|)
// (Abramowitz and Stegun 7.1.26), the side picked by the sign of x; in f64,
// math.erf.
// CHECK-LABEL: func.func @gelu
// CHECK: linalg.generic
// CHECK-NOT: math.erf
// CHECK: math.exp
// CHECK: math.absf
// CHECK: arith.divf
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK-NOT: rlx.
func.func @gelu(%x: tensor<?x7xf32>) -> tensor<?x7xf32> {
  %y = rlx.activation %x {kind = #rlx.activation<gelu>} : tensor<?x7xf32> -> tensor<?x7xf32>
  return %y : tensor<?x7xf32>
}

// -----

// CHECK-LABEL: func.func @gelu_f64
// CHECK: linalg.generic
// CHECK: math.erf
// CHECK-NOT: rlx.
func.func @gelu_f64(%x: tensor<?x7xf64>) -> tensor<?x7xf64> {
  %y = rlx.activation %x {kind = #rlx.activation<gelu>} : tensor<?x7xf64> -> tensor<?x7xf64>
  return %y : tensor<?x7xf64>
}

// -----

// CHECK-LABEL: func.func @relu
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK-NOT: rlx.
func.func @relu(%x: tensor<4xf64>) -> tensor<4xf64> {
  %y = rlx.relu %x : tensor<4xf64> -> tensor<4xf64>
  return %y : tensor<4xf64>
}
