// dx = tanh'(x) * dy, and a second function with two results.
func.func @grad(%x: tensor<?x3xf32>, %dy: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<tanh>} : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %dx : tensor<?x3xf32>
}

func.func @both(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %a = rlx.relu %x : tensor<4xf64> -> tensor<4xf64>
  %b = rlx.activation %x {kind = #rlx.activation<exp>} : tensor<4xf64> -> tensor<4xf64>
  return %a, %b : tensor<4xf64>, tensor<4xf64>
}
