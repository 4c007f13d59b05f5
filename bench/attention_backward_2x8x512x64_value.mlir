// Compile-time benchmark: rlx.attention_backward (wrt value), B=2, H=8, S=512, D=64, causal.
//   time build/bin/rlx-opt bench/attention_backward_2x8x512x64_value.mlir --rlx-to-llvm > /dev/null
func.func @attention_backward_value(%q: tensor<2x8x512x64xf32>, %k: tensor<2x8x512x64xf32>, %v: tensor<2x8x512x64xf32>, %dy: tensor<2x8x512x64xf32>) -> tensor<2x8x512x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<value>} : tensor<2x8x512x64xf32>, tensor<2x8x512x64xf32>, tensor<2x8x512x64xf32>, tensor<2x8x512x64xf32> -> tensor<2x8x512x64xf32>
  return %g : tensor<2x8x512x64xf32>
}
