// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='attention-per-head=false attention-blocks=false' | FileCheck %s

// dq, sequence-major [B, S, H*D] with a dynamic batch, Sq = 3 != Sk = 5,
// custom [B, Sk] mask and softcap. Operands are viewed as [B, S, H, D] by a
// free expand_shape; every product is a linalg.contract over (b, h, i, j, d)
// whose maps index that view directly (no transposes, no copies).
// CHECK-DAG: #[[SEQ_I:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-DAG: #[[SEQ_J:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-DAG: #[[SCORE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[MASK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @dq_custom_softcap
// CHECK-SAME: (%[[Q:.+]]: tensor<?x3x8xf32>, %[[K:.+]]: tensor<?x5x8xf32>, %[[V:.+]]: tensor<?x5x8xf32>, %[[DY:.+]]: tensor<?x3x8xf32>, %[[M:.+]]: tensor<?x5xf32>)
// CHECK-NOT: arith.constant dense
// CHECK-DAG: %[[QV:.+]] = tensor.expand_shape %[[Q]] {{\[\[}}0], [1], [2, 3]] output_shape [%{{.+}}, 3, 2, 4] : tensor<?x3x8xf32> into tensor<?x3x2x4xf32>
// CHECK-DAG: %[[KV:.+]] = tensor.expand_shape %[[K]] {{.*}} into tensor<?x5x2x4xf32>
// CHECK-DAG: %[[DYV:.+]] = tensor.expand_shape %[[DY]] {{.*}} into tensor<?x3x2x4xf32>
// S = q k^T
// CHECK: %[[S:.+]] = linalg.contract indexing_maps = [#[[SEQ_I]], #[[SEQ_J]], #[[SCORE]]] ins(%[[QV]], %[[KV]] : {{.*}}) outs(%{{.+}} : tensor<?x2x3x5xf32>)
// Z = select(mask >= 0.5, c * tanh(scale * S / c), -1e9), the mask read through its map
// CHECK: %[[Z:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[MASK]], #[[ID]]], {{.*}}} ins(%[[S]], %[[M]] : tensor<?x2x3x5xf32>, tensor<?x5xf32>)
// CHECK: math.tanh
// CHECK: arith.cmpf oge
// CHECK: arith.select
// m = max_j Z; e = exp(Z - m) once; l = sum_j e; P = e / l
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[Z]] :
// CHECK: arith.maxnumf
// CHECK: %[[E:.+]] = linalg.generic {{.*}} ins(%[[Z]], %[[MAX]] :
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[E]] :
// CHECK: %[[P:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[SUM]] :
// CHECK: arith.divf
// dP = dy v^T
// CHECK: %[[VV:.+]] = tensor.expand_shape %[[V]]
// CHECK: %[[DP:.+]] = linalg.contract indexing_maps = [#[[SEQ_I]], #[[SEQ_J]], #[[SCORE]]] ins(%[[DYV]], %[[VV]] :
// delta = rowsum(dP * P)
// CHECK: %[[DELTA:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[DP]], %[[P]] :
// dS = scale * P * (dP - delta) * (1 - tanh(scale * S / c)^2), 0 where masked
// CHECK: %[[DS:.+]] = linalg.generic {{.*}} ins(%[[P]], %[[DP]], %[[DELTA]], %[[S]], %[[M]] :
// CHECK: math.tanh
// CHECK: arith.select
// dq = dS k, written in q's [B, S, H, D] view, collapsed back to [B, S, H*D]
// CHECK: %[[DQ:.+]] = linalg.contract indexing_maps = [#[[SCORE]], #[[SEQ_J]], #[[SEQ_I]]] ins(%[[DS]], %[[KV]] : {{.*}}) outs(%{{.+}} : tensor<?x3x2x4xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[DQ]] {{\[\[}}0], [1], [2, 3]] : tensor<?x3x2x4xf32> into tensor<?x3x8xf32>
// CHECK-NOT: rlx.
// CHECK: return %[[R]]
func.func @dq_custom_softcap(%q: tensor<?x3x8xf32>, %k: tensor<?x5x8xf32>, %v: tensor<?x5x8xf32>, %dy: tensor<?x3x8xf32>, %m: tensor<?x5xf32>) -> tensor<?x3x8xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy, %m {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<custom>, softcap = 5.0 : f32, wrt = #rlx.attention_wrt<query>} : tensor<?x3x8xf32>, tensor<?x5x8xf32>, tensor<?x5x8xf32>, tensor<?x3x8xf32>, tensor<?x5xf32> -> tensor<?x3x8xf32>
  return %g : tensor<?x3x8xf32>
}

// -----

// dk, head-major [B, H, S, D], dynamic batch, sliding window 1 (off = 5 - 3 = 2),
// scale 0.25. The mask is generated from linalg.index inside the generics.
// CHECK-DAG: #[[HI:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[HJ:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[SCORE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @dk_sliding_window
// CHECK-SAME: (%[[Q:.+]]: tensor<?x2x3x4xf32>, %[[K:.+]]: tensor<?x2x5x4xf32>, %[[V:.+]]: tensor<?x2x5x4xf32>, %[[DY:.+]]: tensor<?x2x3x4xf32>)
// CHECK-NOT: arith.constant dense
// CHECK-DAG: %[[MASKED:.+]] = arith.constant -1.000000e+09 : f32
// CHECK-DAG: %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[OFF:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[WIN:.+]] = arith.constant 1 : index
// S = q k^T
// CHECK: %[[S:.+]] = linalg.contract indexing_maps = [#[[HI]], #[[HJ]], #[[SCORE]]] ins(%[[Q]], %[[K]] :
// Z = select(i + off - window <= j <= i + off, scale * S, -1e9)
// CHECK: %[[Z:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<?x2x3x5xf32>)
// CHECK: %[[ZS:.+]] = arith.mulf %{{.+}}, %[[SCALE]]
// CHECK: %[[I:.+]] = linalg.index 2 : index
// CHECK: %[[J:.+]] = linalg.index 3 : index
// CHECK: %[[DIAG:.+]] = arith.addi %[[I]], %[[OFF]]
// CHECK: %[[LE:.+]] = arith.cmpi sle, %[[J]], %[[DIAG]]
// CHECK: %[[LO:.+]] = arith.subi %[[DIAG]], %[[WIN]]
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[J]], %[[LO]]
// CHECK: %[[KEEP:.+]] = arith.andi %[[LE]], %[[GE]]
// CHECK: arith.select %[[KEEP]], %[[ZS]], %[[MASKED]]
// softmax statistics and P
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} ins(%[[Z]] :
// CHECK: %[[E:.+]] = linalg.generic {{.*}} ins(%[[Z]], %[[MAX]] :
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[E]] :
// CHECK: %[[P:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[SUM]] :
// dP = dy v^T, delta = rowsum(dP * P)
// CHECK: %[[DP:.+]] = linalg.contract indexing_maps = [#[[HI]], #[[HJ]], #[[SCORE]]] ins(%[[DY]], %[[V]] :
// CHECK: %[[DELTA:.+]] = linalg.generic {{.*}} ins(%[[DP]], %[[P]] :
// dS = scale * P * (dP - delta), 0 outside the window
// CHECK: %[[DS:.+]] = linalg.generic {{.*}} ins(%[[P]], %[[DP]], %[[DELTA]] :
// CHECK: linalg.index 2
// CHECK: arith.select
// dk = dS^T q
// CHECK: %[[DK:.+]] = linalg.contract indexing_maps = [#[[SCORE]], #[[HI]], #[[HJ]]] ins(%[[DS]], %[[Q]] : {{.*}}) outs(%{{.+}} : tensor<?x2x5x4xf32>)
// CHECK: return %[[DK]]
func.func @dk_sliding_window(%q: tensor<?x2x3x4xf32>, %k: tensor<?x2x5x4xf32>, %v: tensor<?x2x5x4xf32>, %dy: tensor<?x2x3x4xf32>) -> tensor<?x2x5x4xf32> {
  %g = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<sliding_window>, window = 1 : i64, scale = 0.25 : f32, wrt = #rlx.attention_wrt<key>} : tensor<?x2x3x4xf32>, tensor<?x2x5x4xf32>, tensor<?x2x5x4xf32>, tensor<?x2x3x4xf32> -> tensor<?x2x5x4xf32>
  return %g : tensor<?x2x5x4xf32>
}

// -----

// dv = P^T dy = E^T (dy / l) needs only E = exp(Z - max) and its row sums
// l: two contractions (S and dv), no dP, no delta, no dS, and no divide of
// the scores (dy's rows are divided by l instead). The [1, H, Sq, 1] bias
// broadcasts through constant-0 map results.
// CHECK-DAG: #[[HI:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[HJ:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[SCORE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[BIAS:.+]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, 0)>
// CHECK-LABEL: func.func @dv_bias
// CHECK-SAME: (%[[Q:.+]]: tensor<2x2x3x4xf64>, %[[K:.+]]: tensor<2x2x5x4xf64>, %[[V:.+]]: tensor<2x2x5x4xf64>, %[[DY:.+]]: tensor<2x2x3x4xf64>, %[[B:.+]]: tensor<1x2x3x1xf64>)
// CHECK-NOT: arith.constant dense
// CHECK: %[[S:.+]] = linalg.contract indexing_maps = [#[[HI]], #[[HJ]], #[[SCORE]]] ins(%[[Q]], %[[K]] :
// Z = scale * S + bias
// CHECK: %[[Z:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[BIAS]], #{{.+}}], {{.*}} ins(%[[S]], %[[B]] :
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[MAX:.+]] = linalg.generic
// CHECK: %[[E:.+]] = linalg.generic {{.*}} ins(%[[Z]], %[[MAX]] :
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[E]] :
// CHECK: %[[DYL:.+]] = linalg.generic {{.*}} ins(%[[DY]], %[[SUM]] : tensor<2x2x3x4xf64>, tensor<2x2x3xf64>)
// CHECK: arith.divf
// CHECK: linalg.yield
// dv[b,h,j,d] = sum_i E[b,h,i,j] (dy / l)[b,h,i,d]; nothing else
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.contract
// CHECK: %[[DV:.+]] = linalg.contract indexing_maps = [#[[SCORE]], #[[HI]], #[[HJ]]] ins(%[[E]], %[[DYL]] : {{.*}}) outs(%{{.+}} : tensor<2x2x5x4xf64>)
// CHECK-NOT: linalg.
// CHECK: return %[[DV]]
func.func @dv_bias(%q: tensor<2x2x3x4xf64>, %k: tensor<2x2x5x4xf64>, %v: tensor<2x2x5x4xf64>, %dy: tensor<2x2x3x4xf64>, %b: tensor<1x2x3x1xf64>) -> tensor<2x2x5x4xf64> {
  %g = rlx.attention_backward %q, %k, %v, %dy, %b {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<value>} : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x3x4xf64>, tensor<1x2x3x1xf64> -> tensor<2x2x5x4xf64>
  return %g : tensor<2x2x5x4xf64>
}

// -----

// dv with a causal mask (off = 0), sequence-major and dynamic batch: still
// no score gradient; the dv contraction writes v's [B, Sk, H, D] view.
// CHECK-DAG: #[[SEQ_I:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-DAG: #[[SEQ_J:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-DAG: #[[SCORE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @dv_causal
// CHECK-NOT: arith.constant dense
// CHECK: linalg.contract
// CHECK: linalg.generic
// CHECK: %[[J:.+]] = linalg.index 3
// CHECK: arith.cmpi sle, %[[J]]
// CHECK: linalg.generic
// CHECK: %[[E:.+]] = linalg.generic
// CHECK: linalg.generic
// dy / l in dy's sequence-major layout
// CHECK: %[[DYL:.+]] = linalg.generic {indexing_maps = [#[[ROWS:map[0-9]*]], #{{.+}}, #[[ROWS]]]{{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x4x3x2xf32>, tensor<?x3x4xf32>)
// CHECK-NOT: linalg.generic
// CHECK: %[[DV:.+]] = linalg.contract indexing_maps = [#[[SCORE]], #[[SEQ_I]], #[[SEQ_J]]] ins(%[[E]], %[[DYL]] : {{.*}}) outs(%{{.+}} : tensor<?x4x3x2xf32>)
// CHECK-NOT: linalg.
// CHECK: tensor.collapse_shape %[[DV]] {{.*}} into tensor<?x4x6xf32>
func.func @dv_causal(%q: tensor<?x4x6xf32>, %dy: tensor<?x4x6xf32>) -> tensor<?x4x6xf32> {
  %g = rlx.attention_backward %q, %q, %q, %dy {num_heads = 3 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<value>} : tensor<?x4x6xf32>, tensor<?x4x6xf32>, tensor<?x4x6xf32>, tensor<?x4x6xf32> -> tensor<?x4x6xf32>
  return %g : tensor<?x4x6xf32>
}

// -----

// A dynamic H*D dim is cast to num_heads * head_dim before the expansion; a
// static result type gets a tensor.cast.
// CHECK-LABEL: func.func @dynamic_width
// CHECK: tensor.cast %{{.+}} : tensor<?x?x?xf32> to tensor<?x?x8xf32>
// CHECK: tensor.expand_shape {{.*}} into tensor<?x?x2x4xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape
// CHECK: %[[C:.+]] = tensor.cast %[[R]] : tensor<?x?x8xf32> to tensor<2x3x8xf32>
// CHECK: return %[[C]]
func.func @dynamic_width(%q: tensor<?x?x?xf32>) -> tensor<2x3x8xf32> {
  %g = rlx.attention_backward %q, %q, %q, %q {num_heads = 2 : i64, head_dim = 4 : i64, wrt = #rlx.attention_wrt<query>} : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32> -> tensor<2x3x8xf32>
  return %g : tensor<2x3x8xf32>
}

// -----

// Grouped-query heads (H = 4 query heads over Hkv = 2 key/value heads,
// G = 2) and a value head dim Dv = 6 != D = 4, sequence-major. The query
// side (q, dy) is viewed [B, S, Hkv, G, D]; k and v [B, S, Hkv, D]; the
// space is (b, h, g, i, j, d). dk reduces over g and i: the sum over each
// group of query heads is the contraction itself (k and v are never
// repeated).
// CHECK-DAG: #[[QSIDE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1, d2, d5)>
// CHECK-DAG: #[[KSIDE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d4, d1, d5)>
// CHECK-DAG: #[[GSCORE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @dk_grouped_value_dim
// CHECK-SAME: (%[[Q:.+]]: tensor<?x3x16xf32>, %[[K:.+]]: tensor<?x5x8xf32>, %[[V:.+]]: tensor<?x5x12xf32>, %[[DY:.+]]: tensor<?x3x24xf32>)
// CHECK-DAG: %[[QV:.+]] = tensor.expand_shape %[[Q]] {{\[\[}}0], [1], [2, 3, 4]] output_shape [%{{.+}}, 3, 2, 2, 4] : tensor<?x3x16xf32> into tensor<?x3x2x2x4xf32>
// CHECK-DAG: %[[KV:.+]] = tensor.expand_shape %[[K]] {{.*}} into tensor<?x5x2x4xf32>
// CHECK-DAG: %[[DYV:.+]] = tensor.expand_shape %[[DY]] {{.*}} into tensor<?x3x2x2x6xf32>
// CHECK: %[[S:.+]] = linalg.contract indexing_maps = [#[[QSIDE]], #[[KSIDE]], #[[GSCORE]]] ins(%[[QV]], %[[KV]] : {{.*}}) outs(%{{.+}} : tensor<?x2x2x3x5xf32>)
// CHECK: %[[VV:.+]] = tensor.expand_shape %[[V]] {{.*}} into tensor<?x5x2x6xf32>
// CHECK: linalg.contract indexing_maps = [#[[QSIDE]], #[[KSIDE]], #[[GSCORE]]] ins(%[[DYV]], %[[VV]] :
// CHECK: %[[DK:.+]] = linalg.contract indexing_maps = [#[[GSCORE]], #[[QSIDE]], #[[KSIDE]]] ins(%{{.+}}, %[[QV]] : tensor<?x2x2x3x5xf32>, tensor<?x3x2x2x4xf32>) outs(%{{.+}} : tensor<?x5x2x4xf32>)
// CHECK: tensor.collapse_shape %[[DK]] {{\[\[}}0], [1], [2, 3]] : tensor<?x5x2x4xf32> into tensor<?x5x8xf32>
func.func @dk_grouped_value_dim(%q: tensor<?x3x16xf32>, %k: tensor<?x5x8xf32>, %v: tensor<?x5x12xf32>, %dy: tensor<?x3x24xf32>) -> tensor<?x5x8xf32> {
  %dk = rlx.attention_backward %q, %k, %v, %dy {num_heads = 4 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 6 : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<key>} : tensor<?x3x16xf32>, tensor<?x5x8xf32>, tensor<?x5x12xf32>, tensor<?x3x24xf32> -> tensor<?x5x8xf32>
  return %dk : tensor<?x5x8xf32>
}

// -----

// Head-major grouped dv with a rank-4 bias over the query heads: the query
// head of the mask is h * G + g; dv reduces over g and i.
// CHECK-DAG: #[[BIAS:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d2, d3, d4)>
// CHECK-DAG: #[[HQ:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>
// CHECK-DAG: #[[HK:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[HSCORE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @dv_grouped_bias
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 2, 3, 3, 4] : tensor<2x6x3x4xf64> into tensor<2x2x3x3x4xf64>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[BIAS]], #{{.+}}]
// CHECK: linalg.contract indexing_maps = [#[[HSCORE]], #[[HQ]], #[[HK]]] ins(%{{.+}}, %{{.+}} : tensor<2x2x3x3x5xf64>, tensor<2x2x3x3x2xf64>) outs(%{{.+}} : tensor<2x2x5x2xf64>)
// CHECK-NOT: tensor.collapse_shape
func.func @dv_grouped_bias(%q: tensor<2x6x3x4xf64>, %k: tensor<2x2x5x4xf64>, %v: tensor<2x2x5x2xf64>, %dy: tensor<2x6x3x2xf64>, %m: tensor<2x6x3x5xf64>) -> tensor<2x2x5x2xf64> {
  %dv = rlx.attention_backward %q, %k, %v, %dy, %m {num_heads = 6 : i64, head_dim = 4 : i64, num_kv_heads = 2 : i64, value_head_dim = 2 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<value>} : tensor<2x6x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x2xf64>, tensor<2x6x3x2xf64>, tensor<2x6x3x5xf64> -> tensor<2x2x5x2xf64>
  return %dv : tensor<2x2x5x2xf64>
}
