// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @softmax_f16(%x: tensor<4x5xf16>) -> tensor<4x5xf16> {
  // expected-error@+1 {{could not lower 'rlx.softmax': element type 'f16' is not supported (only f32 and f64)}}
  %y = rlx.softmax %x : tensor<4x5xf16> -> tensor<4x5xf16>
  return %y : tensor<4x5xf16>
}

// -----

func.func @cross_entropy_bf16(%l: tensor<?x5xbf16>, %t: tensor<?xi32>) -> tensor<?xbf16> {
  // expected-error@+1 {{could not lower 'rlx.softmax_cross_entropy': element type 'bf16' is not supported (only f32 and f64)}}
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<?x5xbf16>, tensor<?xi32> -> tensor<?xbf16>
  return %loss : tensor<?xbf16>
}
