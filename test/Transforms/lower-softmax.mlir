// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// Softmax along a middle axis with a dynamic batch: m = max over d1, then
// e = exp(x - m) once (one parallel generic broadcasting m along d1), s =
// the sum of e over d1, and y = e / s broadcasting s: the exponential is
// computed once per element, not once for the sum and again for y.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[RED:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @softmax_middle
// CHECK-SAME: (%[[X:.+]]: tensor<?x10x3xf32>)
// CHECK-DAG: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[B:.+]] = tensor.dim %[[X]], %[[C0]]
// CHECK: %[[ME:.+]] = tensor.empty(%[[B]]) : tensor<?x3xf32>
// CHECK: %[[MI:.+]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[ME]] : tensor<?x3xf32>)
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<?x10x3xf32>) outs(%[[MI]] : tensor<?x3xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[E:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[M]] : tensor<?x10x3xf32>, tensor<?x3xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[XV]], %[[MV]] : f32
// CHECK-NEXT: %[[EXP:.+]] = math.exp %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[EXP]]
// CHECK: %[[SI:.+]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[E]] : tensor<?x10x3xf32>) outs(%[[SI]] : tensor<?x3xf32>)
// CHECK: arith.addf
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[E]], %[[S]] : tensor<?x10x3xf32>, tensor<?x3xf32>) outs(%{{.+}} : tensor<?x10x3xf32>)
// CHECK-NEXT: ^bb0(%[[EV:.+]]: f32, %[[SV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.divf %[[EV]], %[[SV]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK-NOT: math.exp
// CHECK-NOT: rlx.
// CHECK: return %[[Y]]
func.func @softmax_middle(%x: tensor<?x10x3xf32>) -> tensor<?x10x3xf32> {
  %y = rlx.softmax %x {axis = 1 : i64} : tensor<?x10x3xf32> -> tensor<?x10x3xf32>
  return %y : tensor<?x10x3xf32>
}

// -----

// Default axis (-1 = last) and axis 0: the reduced dim follows the axis.
// CHECK-DAG: #[[LAST:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[FIRST:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @softmax_axes
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[LAST]]], iterator_types = ["parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[LAST]], #{{.+}}], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[LAST]]], iterator_types = ["parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[LAST]], #{{.+}}], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[FIRST]]], iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[FIRST]], #{{.+}}], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[FIRST]]], iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[FIRST]], #{{.+}}], iterator_types = ["parallel", "parallel"]}
func.func @softmax_axes(%x: tensor<4x5xf64>) -> (tensor<4x5xf64>, tensor<4x5xf64>) {
  %y = rlx.softmax %x : tensor<4x5xf64> -> tensor<4x5xf64>
  %z = rlx.softmax %x {axis = -2 : i64} : tensor<4x5xf64> -> tensor<4x5xf64>
  return %y, %z : tensor<4x5xf64>, tensor<4x5xf64>
}

// -----

// loss = m + log(s) - p: the pick p of the labelled logit is fused into the
// sum-of-exp reduction (select on c == label, so an out-of-range label picks
// nothing and leaves p = 0).
// CHECK-LABEL: func.func @cross_entropy
// CHECK-SAME: (%[[L:.+]]: tensor<?x10xf32>, %[[T:.+]]: tensor<?xi64>)
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[M:.+]] = linalg.generic {{.*}} ins(%[[L]] : tensor<?x10xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[SI:.+]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[PI:.+]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[SP:.+]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[L]], %[[M]], %[[T]] : tensor<?x10xf32>, tensor<?xf32>, tensor<?xi64>) outs(%[[SI]], %[[PI]] : tensor<?xf32>, tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[LV:.+]]: f32, %[[MV:.+]]: f32, %[[TV:.+]]: i64, %[[SACC:.+]]: f32, %[[PACC:.+]]: f32):
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[LV]], %[[MV]]
// CHECK-NEXT: %[[E:.+]] = math.exp %[[D]]
// CHECK-NEXT: %[[C:.+]] = linalg.index 1
// CHECK-NEXT: %[[TI:.+]] = arith.index_cast %[[TV]] : i64 to index
// CHECK-NEXT: %[[EQ:.+]] = arith.cmpi eq, %[[C]], %[[TI]]
// CHECK-NEXT: %[[SN:.+]] = arith.addf %[[SACC]], %[[E]]
// CHECK-NEXT: %[[PN:.+]] = arith.select %[[EQ]], %[[LV]], %[[PACC]]
// CHECK-NEXT: linalg.yield %[[SN]], %[[PN]]
// CHECK: %[[LOSS:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[SP]]#0, %[[SP]]#1 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[MV2:.+]]: f32, %[[SV:.+]]: f32, %[[PV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[LOG:.+]] = math.log %[[SV]]
// CHECK-NEXT: %[[LSE:.+]] = arith.addf %[[MV2]], %[[LOG]]
// CHECK-NEXT: %[[R:.+]] = arith.subf %[[LSE]], %[[PV]]
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK-NOT: rlx.
// CHECK: return %[[LOSS]]
func.func @cross_entropy(%l: tensor<?x10xf32>, %t: tensor<?xi64>) -> tensor<?xf32> {
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<?x10xf32>, tensor<?xi64> -> tensor<?xf32>
  return %loss : tensor<?xf32>
}

// -----

// log_softmax: the softmax statistics m and s, then y = (x - m) - log(s).
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.+]]: tensor<?x7xf32>)
// CHECK: %[[M:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x7xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[S:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[M]] : tensor<?x7xf32>, tensor<?xf32>)
// CHECK: %[[Y:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[M]], %[[S]] : tensor<?x7xf32>, tensor<?xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?x7xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[MV:.+]]: f32, %[[SV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[XV]], %[[MV]] : f32
// CHECK-NEXT: %[[L:.+]] = math.log %[[SV]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.subf %[[D]], %[[L]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK-NOT: rlx.
// CHECK: return %[[Y]]
func.func @log_softmax(%x: tensor<?x7xf32>) -> tensor<?x7xf32> {
  %y = rlx.log_softmax %x : tensor<?x7xf32> -> tensor<?x7xf32>
  return %y : tensor<?x7xf32>
}
