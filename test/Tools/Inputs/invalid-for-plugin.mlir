func.func @axis_not_last(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %dx = rlx.layer_norm_backward_input %x, %g, %x {axis = -2 : i64, eps = 1.0e-5 : f32} : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %dx : tensor<2x4x8xf32>
}
