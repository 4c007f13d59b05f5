// The emitted IR does not grow with the tensor sizes: each pair of splits
// rewrites the same op at a small and a ~100x larger static shape and must
// give the same number of operations (generic form, bodies included).
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk -v RS='//[ ]-----' '{ print gsub(/"[a-z_]+\.[a-z_.]+"/, "") }' | FileCheck %s

// CHECK: {{^}}[[BWD:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[BWD]]{{$}}
func.func @backward_small(%dy: tensor<2x3x16xf32>, %c: tensor<3x4xf32>, %s: tensor<3x4xf32>) -> tensor<2x3x16xf32> {
  %dx = rlx.rope_backward %dy, %c, %s {head_dim = 8 : i64, n_rot = 6 : i64} : tensor<2x3x16xf32>, tensor<3x4xf32>, tensor<3x4xf32> -> tensor<2x3x16xf32>
  return %dx : tensor<2x3x16xf32>
}
// -----
func.func @backward_large(%dy: tensor<8x300x64xf32>, %c: tensor<300x4xf32>, %s: tensor<300x4xf32>) -> tensor<8x300x64xf32> {
  %dx = rlx.rope_backward %dy, %c, %s {head_dim = 8 : i64, n_rot = 6 : i64} : tensor<8x300x64xf32>, tensor<300x4xf32>, tensor<300x4xf32> -> tensor<8x300x64xf32>
  return %dx : tensor<8x300x64xf32>
}

// -----

// CHECK-NEXT: {{^}}[[FWD:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[FWD]]{{$}}
func.func @forward_small(%x: tensor<3x16xf64>, %c: tensor<3x4xf64>, %s: tensor<3x4xf64>) -> tensor<3x16xf64> {
  %y = rlx.rope %x, %c, %s {head_dim = 8 : i64, n_rot = 8 : i64} : tensor<3x16xf64>, tensor<3x4xf64>, tensor<3x4xf64> -> tensor<3x16xf64>
  return %y : tensor<3x16xf64>
}
// -----
func.func @forward_large(%x: tensor<300x160xf64>, %c: tensor<300x4xf64>, %s: tensor<300x4xf64>) -> tensor<300x160xf64> {
  %y = rlx.rope %x, %c, %s {head_dim = 8 : i64, n_rot = 8 : i64} : tensor<300x160xf64>, tensor<300x4xf64>, tensor<300x4xf64> -> tensor<300x160xf64>
  return %y : tensor<300x160xf64>
}
