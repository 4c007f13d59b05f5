// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s

// dtable = 0; for n: v = ids[n]; if 0 <= v < V: dtable[v, :] += dy[n, :].
// The indices [?, 5] are flattened to [N], dy [?, 5, 8] to [N, 8]; dynamic batch.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[DY:.+]]: tensor<?x5x8xf32>, %[[IDS:.+]]: tensor<?x5xi32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[V:.+]] = arith.constant 100 : index
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.+]] = tensor.empty() : tensor<100x8xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<100x8xf32>)
// CHECK: %[[FI:.+]] = tensor.collapse_shape %[[IDS]] {{\[\[}}0, 1]] : tensor<?x5xi32> into tensor<?xi32>
// CHECK: %[[FDY:.+]] = tensor.collapse_shape %[[DY]] {{\[\[}}0, 1], [2]] : tensor<?x5x8xf32> into tensor<?x8xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[FI]], %[[C0]]
// CHECK: %[[R:.+]] = scf.for %[[I:.+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[INIT]]) -> (tensor<100x8xf32>)
// CHECK: %[[ID:.+]] = tensor.extract %[[FI]][%[[I]]] : tensor<?xi32>
// CHECK: %[[IX:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[IX]], %[[C0]]
// CHECK: %[[LT:.+]] = arith.cmpi slt, %[[IX]], %[[V]]
// CHECK: %[[OK:.+]] = arith.andi %[[GE]], %[[LT]]
// CHECK: %[[IF:.+]] = scf.if %[[OK]] -> (tensor<100x8xf32>) {
// CHECK: %[[ROW:.+]] = tensor.extract_slice %[[ACC]][%[[IX]], 0] [1, 8] [1, 1] : tensor<100x8xf32> to tensor<8xf32>
// CHECK: %[[DROW:.+]] = tensor.extract_slice %[[FDY]][%[[I]], 0] [1, 8] [1, 1] : tensor<?x8xf32> to tensor<8xf32>
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[DROW]] : tensor<8xf32>) outs(%[[ROW]] : tensor<8xf32>)
// CHECK: arith.addf
// CHECK: %[[UPD:.+]] = tensor.insert_slice %[[SUM]] into %[[ACC]][%[[IX]], 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<100x8xf32>
// CHECK: scf.yield %[[UPD]]
// CHECK: } else {
// CHECK: scf.yield %[[ACC]]
// CHECK: scf.yield %[[IF]]
// CHECK-NOT: rlx.
// CHECK: return %[[R]]
func.func @embedding(%dy: tensor<?x5x8xf32>, %ids: tensor<?x5xi32>) -> tensor<100x8xf32> {
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<?x5x8xf32>, tensor<?x5xi32> -> tensor<100x8xf32>
  return %dt : tensor<100x8xf32>
}

// -----

// A middle axis: dtable[a, v, b] += dy[a, n, b]; the slices are strided
// [A, 1, B] windows. The dynamic leading dim comes from dy, so the table
// counts as large: its rows are split into blocks (here 7 of one row) on an
// scf.forall after one zero fill, each block walking all the indices and
// adding those that fall in it, at index - block start.
// CHECK-LABEL: func.func @middle_axis
// CHECK-SAME: (%[[DY:.+]]: tensor<?x4x3xf64>, %[[IDS:.+]]: tensor<4xi64>)
// CHECK: %[[A:.+]] = tensor.dim %[[DY]], %{{.*}} : tensor<?x4x3xf64>
// CHECK: %[[E:.+]] = tensor.empty(%[[A]]) : tensor<?x7x3xf64>
// CHECK: %[[Z:.+]] = linalg.fill {{.*}} outs(%[[E]] : tensor<?x7x3xf64>)
// CHECK: scf.forall (%[[P:.+]]) in (7) shared_outs(%[[T:.+]] = %[[Z]])
// CHECK: %[[HI:.+]] = affine.apply #{{.+}}(%[[P]])
// CHECK: %[[BLOCK:.+]] = tensor.extract_slice %[[T]][0, %[[P]], 0] [%[[A]], 1, 3] [1, 1, 1] : tensor<?x7x3xf64> to tensor<?x1x3xf64>
// CHECK: scf.for %[[I:.+]] = {{.*}} iter_args(%[[ACC:.+]] = %[[BLOCK]])
// CHECK: %[[V:.+]] = tensor.extract %[[IDS]][%[[I]]] : tensor<4xi64>
// CHECK: %[[IX0:.+]] = arith.index_cast %[[V]]
// CHECK: arith.cmpi sge, %[[IX0]], %[[P]]
// CHECK: arith.cmpi slt, %[[IX0]], %[[HI]]
// CHECK: scf.if
// CHECK: %[[IX:.+]] = arith.subi %[[IX0]], %[[P]]
// CHECK: tensor.extract_slice %[[ACC]][0, %[[IX]], 0] [%[[A]], 1, 3] [1, 1, 1] : tensor<?x1x3xf64> to tensor<?x3xf64>
// CHECK: tensor.extract_slice %[[DY]][0, %[[I]], 0] [%[[A]], 1, 3] [1, 1, 1] : tensor<?x4x3xf64> to tensor<?x3xf64>
// CHECK: linalg.generic
// CHECK: tensor.insert_slice %{{.*}} into %[[ACC]][0, %[[IX]], 0] [%[[A]], 1, 3]
// CHECK: tensor.parallel_insert_slice %{{.+}} into %[[T]][0, %[[P]], 0] [%[[A]], 1, 3]
func.func @middle_axis(%dy: tensor<?x4x3xf64>, %ids: tensor<4xi64>) -> tensor<?x7x3xf64> {
  %dt = rlx.gather_backward %dy, %ids {axis = 1 : i64} : tensor<?x4x3xf64>, tensor<4xi64> -> tensor<?x7x3xf64>
  return %dt : tensor<?x7x3xf64>
}

// -----

// Rank-0 indices: one step, the whole of dy is the row.
// CHECK-LABEL: func.func @scalar_index
// CHECK-SAME: (%[[DY:.+]]: tensor<2xf32>, %[[ID:.+]]: tensor<i32>)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C1]] step %[[C1]]
// CHECK: tensor.extract %[[ID]][] : tensor<i32>
// CHECK: scf.if
// CHECK: linalg.generic {{.*}} ins(%[[DY]] : tensor<2xf32>)
func.func @scalar_index(%dy: tensor<2xf32>, %id: tensor<i32>) -> tensor<2x6xf32> {
  %dt = rlx.gather_backward %dy, %id {axis = -1 : i64} : tensor<2xf32>, tensor<i32> -> tensor<2x6xf32>
  return %dt : tensor<2x6xf32>
}

// -----

// padding_idx = -1 (row V - 1 = 99) and scale_grad_by_freq: a first loop
// counts each in-range index into counts[100] (an out-of-range one adds 0 at
// row 0: one in-place update either way); the scatter loop skips v == 99 and
// adds dy[n, :] * (1 / counts[v]).
// CHECK-LABEL: func.func @embedding_options
// CHECK-SAME: (%[[DY:.+]]: tensor<?x8xf32>, %[[IDS:.+]]: tensor<?xi64>)
// CHECK-DAG: %[[PAD:.+]] = arith.constant 99 : index
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[CI:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<100xf32>)
// CHECK: %[[COUNTS:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[C:.+]] = %[[CI]]) -> (tensor<100xf32>)
// CHECK: %[[AT:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : index
// CHECK: %[[OLD:.+]] = tensor.extract %[[C]][%[[AT]]]
// CHECK: %[[INC:.+]] = arith.addf %[[OLD]], %{{.+}} : f32
// CHECK: %[[NEW:.+]] = tensor.insert %[[INC]] into %[[C]][%[[AT]]]
// CHECK: scf.yield %[[NEW]]
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<100x8xf32>)
// CHECK: %[[IX:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK: %[[OK:.+]] = arith.andi
// CHECK: %[[NOTPAD:.+]] = arith.cmpi ne, %[[IX]], %[[PAD]] : index
// CHECK: %[[TAKE:.+]] = arith.andi %[[OK]], %[[NOTPAD]] : i1
// CHECK: scf.if %[[TAKE]] -> (tensor<100x8xf32>)
// CHECK: %[[CNT:.+]] = tensor.extract %[[COUNTS]][%[[IX]]] : tensor<100xf32>
// CHECK: %[[SCALE:.+]] = arith.divf %[[ONE]], %[[CNT]] : f32
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK: arith.addf
// CHECK: tensor.insert_slice
func.func @embedding_options(%dy: tensor<?x8xf32>, %ids: tensor<?xi64>) -> tensor<100x8xf32> {
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64, padding_idx = -1 : i64, scale_grad_by_freq} : tensor<?x8xf32>, tensor<?xi64> -> tensor<100x8xf32>
  return %dt : tensor<100x8xf32>
}
