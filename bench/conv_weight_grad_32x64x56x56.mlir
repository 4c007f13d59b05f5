// Weight gradient of a ResNet-style 3x3 convolution: x [32,64,56,56], 64
// output channels, padding 1. Compile-time benchmark of the decomposition:
//   time build/bin/rlx-opt bench/conv_weight_grad_32x64x56x56.mlir --rlx-to-llvm > /dev/null
func.func @conv_weight_grad(%x: tensor<32x64x56x56xf32>, %dy: tensor<32x64x56x56xf32>) -> tensor<64x64x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<32x64x56x56xf32>, tensor<32x64x56x56xf32> -> tensor<64x64x3x3xf32>
  return %dw : tensor<64x64x3x3xf32>
}
