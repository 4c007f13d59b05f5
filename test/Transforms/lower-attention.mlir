// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg=forward-attention-blocks=false | FileCheck %s

// Sequence-major [B, S, H*D], dynamic batch, Sq = 3 != Sk = 5, [Sq, Sk] bias
// and softcap: out = softmax(c * tanh(scale * q k^T / c) + bias) v.
// CHECK-DAG: #[[SEQ_I:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-DAG: #[[SEQ_J:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-DAG: #[[SCORE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[BIAS:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @bias_softcap
// CHECK-SAME: (%[[Q:.+]]: tensor<?x3x8xf64>, %[[K:.+]]: tensor<?x5x8xf64>, %[[V:.+]]: tensor<?x5x8xf64>, %[[B:.+]]: tensor<3x5xf64>)
// CHECK-NOT: arith.constant dense
// CHECK-DAG: %[[CAP:.+]] = arith.constant 2.000000e+01 : f64
// CHECK-DAG: %[[SCALE:.+]] = arith.constant 5.000000e-01 : f64
// CHECK: %[[QV:.+]] = tensor.expand_shape %[[Q]] {{.*}} into tensor<?x3x2x4xf64>
// CHECK: %[[KV:.+]] = tensor.expand_shape %[[K]] {{.*}} into tensor<?x5x2x4xf64>
// CHECK: %[[VV:.+]] = tensor.expand_shape %[[V]] {{.*}} into tensor<?x5x2x4xf64>
// S = q k^T over (b, h, i, j, d)
// CHECK: %[[S:.+]] = linalg.contract indexing_maps = [#[[SEQ_I]], #[[SEQ_J]], #[[SCORE]]] ins(%[[QV]], %[[KV]] : {{.*}}) outs(%{{.+}} : tensor<?x2x3x5xf64>)
// Z = c * tanh(scale * S / c) + bias[i, j]
// CHECK: %[[Z:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[BIAS]], #{{.+}}], {{.*}} ins(%[[S]], %[[B]] :
// CHECK: %[[RAW:.+]] = arith.mulf %{{.+}}, %[[SCALE]]
// CHECK: %[[DIV:.+]] = arith.divf %[[RAW]], %[[CAP]]
// CHECK: %[[T:.+]] = math.tanh %[[DIV]]
// CHECK: %[[CAPPED:.+]] = arith.mulf %[[T]], %[[CAP]]
// CHECK: arith.addf %[[CAPPED]]
// m = max_j Z, e = exp(Z - m) once, l = sum_j e, P = e / l
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[Z]] :
// CHECK: arith.maxnumf
// CHECK: %[[E:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[Z]], %[[MAX]] :
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[E]] :
// CHECK: %[[P:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[SUM]] :
// CHECK-NOT: math.exp
// out = P v, written into q's view and collapsed
// CHECK: %[[O:.+]] = linalg.contract indexing_maps = [#[[SCORE]], #[[SEQ_J]], #[[SEQ_I]]] ins(%[[P]], %[[VV]] : {{.*}}) outs(%{{.+}} : tensor<?x3x2x4xf64>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[O]] {{.*}} into tensor<?x3x8xf64>
// CHECK-NOT: rlx.
// CHECK: return %[[R]]
func.func @bias_softcap(%q: tensor<?x3x8xf64>, %k: tensor<?x5x8xf64>, %v: tensor<?x5x8xf64>, %b: tensor<3x5xf64>) -> tensor<?x3x8xf64> {
  %o = rlx.attention %q, %k, %v, %b {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, softcap = 20.0 : f32} : tensor<?x3x8xf64>, tensor<?x5x8xf64>, tensor<?x5x8xf64>, tensor<3x5xf64> -> tensor<?x3x8xf64>
  return %o : tensor<?x3x8xf64>
}

// -----

// Head-major, causal (off = Sk - Sq = 0, so i + off folds to i): keep j <= i
// from linalg.index.
// CHECK-DAG: #[[HI:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[HJ:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[SCORE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @causal
// CHECK-SAME: (%[[Q:.+]]: tensor<2x4x6x8xf32>, %[[K:.+]]: tensor<2x4x6x8xf32>, %[[V:.+]]: tensor<2x4x6x8xf32>)
// CHECK-NOT: arith.constant dense
// CHECK-DAG: %[[MASKED:.+]] = arith.constant -1.000000e+09 : f32
// CHECK: %[[S:.+]] = linalg.contract indexing_maps = [#[[HI]], #[[HJ]], #[[SCORE]]] ins(%[[Q]], %[[K]] :
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<2x4x6x6xf32>)
// CHECK: %[[I:.+]] = linalg.index 2 : index
// CHECK: %[[J:.+]] = linalg.index 3 : index
// CHECK: %[[KEEP:.+]] = arith.cmpi sle, %[[J]], %[[I]]
// CHECK: arith.select %[[KEEP]], %{{.+}}, %[[MASKED]]
// CHECK: %[[MAX:.+]] = linalg.generic
// CHECK: %[[E:.+]] = linalg.generic
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK: %[[P:.+]] = linalg.generic
// CHECK: linalg.contract indexing_maps = [#[[SCORE]], #[[HJ]], #[[HI]]] ins(%[[P]], %[[V]] : {{.*}}) outs(%{{.+}} : tensor<2x4x6x8xf32>)
func.func @causal(%q: tensor<2x4x6x8xf32>, %k: tensor<2x4x6x8xf32>, %v: tensor<2x4x6x8xf32>) -> tensor<2x4x6x8xf32> {
  %o = rlx.attention %q, %k, %v {num_heads = 4 : i64, head_dim = 8 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32> -> tensor<2x4x6x8xf32>
  return %o : tensor<2x4x6x8xf32>
}

// -----

// Fully dynamic shapes: off = Sk - Sq from tensor.dim; [B, H, Sq, Sk] custom mask.
// CHECK-LABEL: func.func @dynamic_custom
// CHECK-NOT: arith.constant dense
// CHECK: linalg.contract
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x2x?x?xf32>, tensor<?x2x?x?xf32>)
// CHECK: arith.cmpf oge
// CHECK: linalg.contract
// CHECK-NOT: rlx.
func.func @dynamic_custom(%q: tensor<?x2x?x4xf32>, %k: tensor<?x2x?x4xf32>, %m: tensor<?x2x?x?xf32>) -> tensor<?x2x?x4xf32> {
  %o = rlx.attention %q, %k, %k, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>, tensor<?x2x?x?xf32> -> tensor<?x2x?x4xf32>
  return %o : tensor<?x2x?x4xf32>
}

// -----

// Grouped-query heads (6 over 2: G = 3) and Dv = 2 != D = 4, head-major:
// q is viewed [B, Hkv, G, S, D] (k and v as they are), and the output is a
// [B, Hkv, G, Sq, Dv] contraction collapsed back to [B, H, Sq, Dv].
// CHECK-DAG: #[[GQ:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>
// CHECK-DAG: #[[GK:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[GS:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @grouped_value_dim
// CHECK-SAME: (%[[Q:.+]]: tensor<?x6x3x4xf32>, %[[K:.+]]: tensor<?x2x5x4xf32>, %[[V:.+]]: tensor<?x2x5x2xf32>)
// CHECK: %[[QV:.+]] = tensor.expand_shape %[[Q]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [%{{.+}}, 2, 3, 3, 4] : tensor<?x6x3x4xf32> into tensor<?x2x3x3x4xf32>
// CHECK: %[[S:.+]] = linalg.contract indexing_maps = [#[[GQ]], #[[GK]], #[[GS]]] ins(%[[QV]], %[[K]] : {{.*}}) outs(%{{.+}} : tensor<?x2x3x3x5xf32>)
// CHECK: linalg.index 3 : index
// CHECK: linalg.index 4 : index
// CHECK: %[[O:.+]] = linalg.contract indexing_maps = [#[[GS]], #[[GK]], #[[GQ]]] ins(%{{.+}}, %[[V]] : tensor<?x2x3x3x5xf32>, tensor<?x2x5x2xf32>) outs(%{{.+}} : tensor<?x2x3x3x2xf32>)
// CHECK: tensor.collapse_shape %[[O]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<?x2x3x3x2xf32> into tensor<?x6x3x2xf32>
func.func @grouped_value_dim(%q: tensor<?x6x3x4xf32>, %k: tensor<?x2x5x4xf32>, %v: tensor<?x2x5x2xf32>) -> tensor<?x6x3x2xf32> {
  %o = rlx.attention %q, %k, %v {num_heads = 6 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 2 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<?x6x3x4xf32>, tensor<?x2x5x4xf32>, tensor<?x2x5x2xf32> -> tensor<?x6x3x2xf32>
  return %o : tensor<?x6x3x2xf32>
}
