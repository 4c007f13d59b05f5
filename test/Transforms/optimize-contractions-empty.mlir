// RUN: rlx-opt %s --rlx-to-llvm | FileCheck %s
// An empty contraction (no input channels) is left to the default lowering:
// the optimiser used to crash planning its tiles (found by the compile fuzzer).

// CHECK: llvm.func @weight_no_input_channels
func.func @weight_no_input_channels(%x: tensor<?x0x5x5xf32>, %dy: tensor<?x3x3x3xf32>) -> tensor<3x0x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %x, %dy : tensor<?x0x5x5xf32>, tensor<?x3x3x3xf32> -> tensor<3x0x3x3xf32>
  return %dw : tensor<3x0x3x3xf32>
}
