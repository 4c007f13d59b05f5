// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s

// Dynamic N, i32 labels. m = max_c l (a reduction generic), e = exp(l - m)
// once (an elementwise generic), s = sum_c e (a reduction generic), the row
// scalar r = d_loss / s (a generic over [N]), then ONE generic over [N, C]
// builds e * r - (c == label ? d_loss : 0), the one-hot from linalg.index:
// no divide per element, and the exponential is not computed again.
// CHECK-LABEL: func.func @ce_backward
// CHECK-SAME: (%[[L:.+]]: tensor<?x10xf32>, %[[T:.+]]: tensor<?xi32>, %[[D:.+]]: tensor<?xf32>)
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[N:.+]] = tensor.dim %[[L]], %[[C0]]
// CHECK: %[[ME:.+]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[MI:.+]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[ME]] : tensor<?xf32>)
// CHECK: %[[M:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[L]] : tensor<?x10xf32>) outs(%[[MI]] : tensor<?xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[EXPS:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[L]], %[[M]] : tensor<?x10xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?x10xf32>)
// CHECK-NEXT: ^bb0(%[[LV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[SUB:.+]] = arith.subf %[[LV]], %[[MV]] : f32
// CHECK-NEXT: %[[EXP:.+]] = math.exp %[[SUB]] : f32
// CHECK-NEXT: linalg.yield %[[EXP]] : f32
// CHECK: %[[SI:.+]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[S:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[EXPS]] : tensor<?x10xf32>) outs(%[[SI]] : tensor<?xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.+]] = linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[D]], %[[S]] : tensor<?xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[DL:.+]]: f32, %[[SV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[Q:.+]] = arith.divf %[[DL]], %[[SV]] : f32
// CHECK-NEXT: linalg.yield %[[Q]] : f32
// CHECK: %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?x10xf32>
// CHECK: %[[G:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[EXPS]], %[[R]], %[[T]], %[[D]] : tensor<?x10xf32>, tensor<?xf32>, tensor<?xi32>, tensor<?xf32>) outs(%[[E]] : tensor<?x10xf32>)
// CHECK-NEXT: ^bb0(%[[EV:.+]]: f32, %[[RV:.+]]: f32, %[[TV:.+]]: i32, %[[DV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[C:.+]] = linalg.index 1 : index
// CHECK-NEXT: %[[TI:.+]] = arith.index_cast %[[TV]] : i32 to index
// CHECK-NEXT: %[[EQ:.+]] = arith.cmpi eq, %[[C]], %[[TI]] : index
// CHECK-NEXT: %[[OH:.+]] = arith.select %[[EQ]], %[[DV]], %[[ZERO]] : f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EV]], %[[RV]] : f32
// CHECK-NEXT: %[[RES:.+]] = arith.subf %[[P]], %[[OH]] : f32
// CHECK-NEXT: linalg.yield %[[RES]] : f32
// CHECK-NEXT: } -> tensor<?x10xf32>
// CHECK-NEXT: return %[[G]] : tensor<?x10xf32>
func.func @ce_backward(%l: tensor<?x10xf32>, %t: tensor<?xi32>, %d: tensor<?xf32>) -> tensor<?x10xf32> {
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<?x10xf32>, tensor<?xi32>, tensor<?xf32> -> tensor<?x10xf32>
  return %dl : tensor<?x10xf32>
}

// -----

// Static f64 with i64 labels: the same five generics, no per-class ops.
// CHECK-LABEL: func.func @ce_backward_static
// CHECK-SAME: (%[[L:.+]]: tensor<3x7xf64>, %[[T:.+]]: tensor<3xi64>, %[[D:.+]]: tensor<3xf64>)
// CHECK: %[[M:.+]] = linalg.generic {{.*}} ins(%[[L]] : tensor<3x7xf64>) outs(%{{.+}} : tensor<3xf64>)
// CHECK: %[[EXPS:.+]] = linalg.generic {{.*}} ins(%[[L]], %[[M]] : tensor<3x7xf64>, tensor<3xf64>) outs(%{{.+}} : tensor<3x7xf64>)
// CHECK: %[[S:.+]] = linalg.generic {{.*}} ins(%[[EXPS]] : tensor<3x7xf64>) outs(%{{.+}} : tensor<3xf64>)
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[D]], %[[S]] : tensor<3xf64>, tensor<3xf64>) outs(%{{.+}} : tensor<3xf64>)
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[EXPS]], %[[R]], %[[T]], %[[D]] : {{.*}}) outs(%{{.+}} : tensor<3x7xf64>)
// CHECK: linalg.index 1
// CHECK: arith.index_cast %{{.+}} : i64 to index
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK-NOT: linalg.generic
// CHECK-NOT: tensor.concat
// CHECK-NOT: tensor.insert_slice
// CHECK: return %[[G]]
func.func @ce_backward_static(%l: tensor<3x7xf64>, %t: tensor<3xi64>, %d: tensor<3xf64>) -> tensor<3x7xf64> {
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<3x7xf64>, tensor<3xi64>, tensor<3xf64> -> tensor<3x7xf64>
  return %dl : tensor<3x7xf64>
}

// -----

// A result type more static than the operands gets a tensor.cast.
// CHECK-LABEL: func.func @ce_backward_cast
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: %[[G:.+]] = linalg.generic
// CHECK: tensor.cast %[[G]] : tensor<?x?xf32> to tensor<4x5xf32>
func.func @ce_backward_cast(%l: tensor<?x?xf32>, %t: tensor<?xi32>, %d: tensor<?xf32>) -> tensor<4x5xf32> {
  %dl = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<?x?xf32>, tensor<?xi32>, tensor<?xf32> -> tensor<4x5xf32>
  return %dl : tensor<4x5xf32>
}

// -----

// softmax_backward: m = max (one reduction), e = exp(x - m) once (an
// elementwise generic), then s = sum(e) and t = sum(dy * e) in ONE
// two-result reduction over e, then one generic dx = e/s * (dy - t/s) that
// reads e: no second exponential.
// CHECK-LABEL: func.func @softmax_backward
// CHECK-SAME: (%[[X:.+]]: tensor<?x10xf32>, %[[DY:.+]]: tensor<?x10xf32>)
// CHECK: %[[M:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x10xf32>) outs(%{{.+}} : tensor<?xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[EXPS:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[M]] : tensor<?x10xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?x10xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[XV]], %[[MV]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK: %[[ST:.+]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[EXPS]], %[[DY]] : tensor<?x10xf32>, tensor<?x10xf32>) outs(%{{.+}}, %{{.+}} : tensor<?xf32>, tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[EV:.+]]: f32, %[[DV:.+]]: f32, %[[SA:.+]]: f32, %[[TA:.+]]: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[SA]], %[[EV]] : f32
// CHECK-NEXT: %[[DE:.+]] = arith.mulf %[[DV]], %[[EV]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.addf %[[TA]], %[[DE]] : f32
// CHECK-NEXT: linalg.yield %[[S]], %[[T]] : f32, f32
// CHECK: %[[DX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[EXPS]], %[[DY]], %[[ST]]#0, %[[ST]]#1 : {{.*}}) outs(%{{.+}} : tensor<?x10xf32>)
// CHECK-NEXT: ^bb0(%[[EV2:.+]]: f32, %[[DV2:.+]]: f32, %[[SV:.+]]: f32, %[[TV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[Y:.+]] = arith.divf %[[EV2]], %[[SV]] : f32
// CHECK-NEXT: %[[MEAN:.+]] = arith.divf %[[TV]], %[[SV]] : f32
// CHECK-NEXT: %[[DIFF:.+]] = arith.subf %[[DV2]], %[[MEAN]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[Y]], %[[DIFF]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[DX]]
func.func @softmax_backward(%x: tensor<?x10xf32>, %dy: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %dx = rlx.softmax_backward %x, %dy : tensor<?x10xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
  return %dx : tensor<?x10xf32>
}

// -----

// log_softmax_backward along a dynamic middle axis: the same four
// generics, the sums over e summing dy too, the last dx = dy - e/s * sum(dy).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[RED:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @log_softmax_backward
// CHECK-SAME: (%[[X:.+]]: tensor<4x?x3xf64>, %[[DY:.+]]: tensor<4x?x3xf64>)
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<4x?x3xf64>) outs(%{{.+}} : tensor<4x3xf64>)
// CHECK: %[[EXPS:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[M]] : {{.*}}) outs(%{{.+}} : tensor<4x?x3xf64>)
// CHECK: math.exp
// CHECK: %[[SG:.+]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[RED]], #[[RED]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[EXPS]], %[[DY]] : {{.*}}) outs(%{{.+}}, %{{.+}} : tensor<4x3xf64>, tensor<4x3xf64>)
// CHECK-NEXT: ^bb0(%[[EV:.+]]: f64, %[[DV:.+]]: f64, %[[SA:.+]]: f64, %[[GA:.+]]: f64):
// CHECK: %[[G:.+]] = arith.addf %[[GA]], %[[DV]] : f64
// CHECK: %[[DX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[EXPS]], %[[DY]], %[[SG]]#0, %[[SG]]#1 : {{.*}}) outs(%{{.+}} : tensor<4x?x3xf64>)
// CHECK-NEXT: ^bb0(%[[EV2:.+]]: f64, %[[DV2:.+]]: f64, %[[SV:.+]]: f64, %[[GV:.+]]: f64, %{{.+}}: f64):
// CHECK-NEXT: %[[Y:.+]] = arith.divf %[[EV2]], %[[SV]] : f64
// CHECK-NEXT: %[[YG:.+]] = arith.mulf %[[Y]], %[[GV]] : f64
// CHECK-NEXT: %[[R:.+]] = arith.subf %[[DV2]], %[[YG]] : f64
// CHECK-NEXT: linalg.yield %[[R]] : f64
// CHECK: return %[[DX]]
func.func @log_softmax_backward(%x: tensor<4x?x3xf64>, %dy: tensor<4x?x3xf64>) -> tensor<4x?x3xf64> {
  %dx = rlx.log_softmax_backward %x, %dy {axis = 1 : i64} : tensor<4x?x3xf64>, tensor<4x?x3xf64> -> tensor<4x?x3xf64>
  return %dx : tensor<4x?x3xf64>
}
