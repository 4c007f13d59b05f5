// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --verify-diagnostics

func.func @f8E4M3FN_forward(%x: tensor<1x2x4x4xf8E4M3FN>) -> tensor<1x2x2x2xf8E4M3FN> {
  // expected-error@+1 {{could not lower 'rlx.max_pool2d': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf8E4M3FN> -> tensor<1x2x2x2xf8E4M3FN>
  return %y : tensor<1x2x2x2xf8E4M3FN>
}
