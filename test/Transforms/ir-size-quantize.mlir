// The emitted IR does not grow with the tensor sizes: each pair of splits
// rewrites the same op at a small and a ~100x larger static shape and must
// give the same number of operations (generic form, bodies included).
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk -v RS='//[ ]-----' '{ print gsub(/"[a-z_]+\.[a-z_.]+"/, "") }' | FileCheck %s

// CHECK: {{^}}[[BWD:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[BWD]]{{$}}
func.func @backward_small(%x: tensor<2x3x4xf32>, %dy: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %dx = rlx.fake_quantize_backward %x, %dy {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<hard_tanh>} : tensor<2x3x4xf32>, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %dx : tensor<2x3x4xf32>
}
// -----
func.func @backward_large(%x: tensor<20x30x40xf32>, %dy: tensor<20x30x40xf32>) -> tensor<20x30x40xf32> {
  %dx = rlx.fake_quantize_backward %x, %dy {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<hard_tanh>} : tensor<20x30x40xf32>, tensor<20x30x40xf32> -> tensor<20x30x40xf32>
  return %dx : tensor<20x30x40xf32>
}

// -----

// CHECK-NEXT: {{^}}[[FWD:[0-9]+]]{{$}}
// CHECK-NEXT: {{^}}[[FWD]]{{$}}
func.func @forward_small(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = rlx.fake_quantize %x {bits = 8 : i64} : tensor<2x3xf64> -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}
// -----
func.func @forward_large(%x: tensor<200x300xf64>) -> tensor<200x300xf64> {
  %y = rlx.fake_quantize %x {bits = 8 : i64} : tensor<200x300xf64> -> tensor<200x300xf64>
  return %y : tensor<200x300xf64>
}
