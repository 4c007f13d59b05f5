// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// gelu(x) = x * (1 + erf(x / sqrt 2)) / 2: one elementwise generic.
// CHECK-LABEL: func.func @gelu
// CHECK: linalg.generic
// CHECK: math.erf
// CHECK-NOT: rlx.
func.func @gelu(%x: tensor<?x7xf32>) -> tensor<?x7xf32> {
  %y = rlx.activation %x {kind = #rlx.activation<gelu>} : tensor<?x7xf32> -> tensor<?x7xf32>
  return %y : tensor<?x7xf32>
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
