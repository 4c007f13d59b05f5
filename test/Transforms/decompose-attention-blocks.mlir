// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg | FileCheck %s

// attention-blocks (the default): dq of causal attention, B = 2, H = 8,
// S = 512, D = 64. An scf.forall over (batch, head), an scf.for over blocks
// of 64 query rows (32K score elements per block: 64 x 512), static
// [64, D] slices of q and dy; the causal block sees the keys [0, end) with
// end = min(Sk, round_up(i0 + 64 + Sk - Sq, 32)) (all of them when its
// first row sees none), and its score tiles are [64, end].
// CHECK-LABEL: func.func @dq_causal
// CHECK: scf.forall (%[[B:.+]], %[[H:.+]]) in (2, 8) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<2x8x512x64xf32>)
// CHECK: scf.for %[[I0:.+]] = %{{.+}} to %{{.+}} step %c64 iter_args
// CHECK: tensor.extract_slice %{{.+}}[0, 0, %[[I0]], 0] [1, 1, 64, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x64x64xf32>
// CHECK: arith.minsi
// CHECK: %[[KB:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 1, %[[END:.+]], 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x?x64xf32>
// CHECK: linalg.contract {{.*}} outs(%{{.+}} : tensor<1x1x64x?xf32>)
// CHECK: math.exp
// CHECK: linalg.contract
// CHECK: linalg.contract {{.*}} -> tensor<1x1x64x64xf32>
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, %[[I0]], 0] [1, 1, 64, 64]
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %{{.+}} into %[[OUT]][%[[B]], %[[H]], 0, 0] [1, 1, 512, 64]
func.func @dq_causal(%q: tensor<2x8x512x64xf32>, %k: tensor<2x8x512x64xf32>, %v: tensor<2x8x512x64xf32>, %dy: tensor<2x8x512x64xf32>) -> tensor<2x8x512x64xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64, head_dim = 64 : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<query>} : tensor<2x8x512x64xf32>, tensor<2x8x512x64xf32>, tensor<2x8x512x64xf32>, tensor<2x8x512x64xf32> -> tensor<2x8x512x64xf32>
  return %g : tensor<2x8x512x64xf32>
}
