// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @softmax_f8E4M3FN(%x: tensor<4x5xf8E4M3FN>) -> tensor<4x5xf8E4M3FN> {
  // expected-error@+1 {{could not lower 'rlx.softmax': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %y = rlx.softmax %x : tensor<4x5xf8E4M3FN> -> tensor<4x5xf8E4M3FN>
  return %y : tensor<4x5xf8E4M3FN>
}

// -----

func.func @cross_entropy_f8E5M2(%l: tensor<?x5xf8E5M2>, %t: tensor<?xi32>) -> tensor<?xf8E5M2> {
  // expected-error@+1 {{could not lower 'rlx.softmax_cross_entropy': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<?x5xf8E5M2>, tensor<?xi32> -> tensor<?xf8E5M2>
  return %loss : tensor<?xf8E5M2>
}
