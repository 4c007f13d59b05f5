func.func @f(%x: tensor<4xf32>) -> tensor<5xf32> {
  %y = rlx.relu %x : tensor<4xf32> -> tensor<5xf32>
  return %y : tensor<5xf32>
}
