// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// y[n, s, d] = 0 <= ids[n, s] < V ? table[ids[n, s], d] : 0: one generic over
// the result that reads the table at the clamped index. Dynamic batch, i32.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[T:.+]]: tensor<100x8xf32>, %[[IDS:.+]]: tensor<?x5xi32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[V:.+]] = arith.constant 100 : index
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.+]] = tensor.empty(%{{.*}}) : tensor<?x5x8xf32>
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#[[$IMAP:.+]], #[[$YMAP:.+]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[IDS]] : tensor<?x5xi32>) outs(%[[E]] : tensor<?x5x8xf32>)
// CHECK: ^bb0(%[[ID:.+]]: i32, %{{.*}}: f32):
// CHECK: %[[IX:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[IX]], %[[C0]]
// CHECK: %[[LT:.+]] = arith.cmpi slt, %[[IX]], %[[V]]
// CHECK: %[[OK:.+]] = arith.andi %[[GE]], %[[LT]]
// CHECK: %[[CL:.+]] = arith.select %[[OK]], %[[IX]], %[[C0]]
// CHECK: %[[D:.+]] = linalg.index 2
// CHECK: %[[R:.+]] = tensor.extract %[[T]][%[[CL]], %[[D]]]
// CHECK: %[[Y:.+]] = arith.select %[[OK]], %[[R]], %[[ZERO]]
// CHECK: linalg.yield %[[Y]]
// CHECK-NOT: rlx.
// CHECK: return %[[G]]
func.func @embedding(%t: tensor<100x8xf32>, %ids: tensor<?x5xi32>) -> tensor<?x5x8xf32> {
  %y = rlx.gather %t, %ids {axis = 0 : i64} : tensor<100x8xf32>, tensor<?x5xi32> -> tensor<?x5x8xf32>
  return %y : tensor<?x5x8xf32>
}

// -----

// A middle axis with i64 indices: y[a, n, b] = table[a, ids[n], b].
// CHECK-DAG: #[[$IMAP:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @middle_axis
// CHECK-SAME: (%[[T:.+]]: tensor<?x7x3xf64>, %[[IDS:.+]]: tensor<4xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[$IMAP]], #{{.+}}]
// CHECK: arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[A:.+]] = linalg.index 0
// CHECK: %[[B:.+]] = linalg.index 2
// CHECK: tensor.extract %[[T]][%[[A]], %{{.*}}, %[[B]]] : tensor<?x7x3xf64>
func.func @middle_axis(%t: tensor<?x7x3xf64>, %ids: tensor<4xi64>) -> tensor<?x4x3xf64> {
  %y = rlx.gather %t, %ids {axis = 1 : i64} : tensor<?x7x3xf64>, tensor<4xi64> -> tensor<?x4x3xf64>
  return %y : tensor<?x4x3xf64>
}

// -----

// Rank-0 indices drop the axis. A dynamic row count V is read with tensor.dim
// and checked first: with V == 0 the result is zeros and nothing is read.
// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @scalar_index
// CHECK-SAME: (%[[T:.+]]: tensor<3x?xf32>, %[[ID:.+]]: tensor<i32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[V:.+]] = tensor.dim %[[T]], %{{.*}} : tensor<3x?xf32>
// CHECK: %[[NONE:.+]] = arith.cmpi eq, %[[V]], %[[C0]]
// CHECK: %[[R:.+]] = scf.if %[[NONE]] -> (tensor<3xf32>) {
// CHECK: %[[Z:.+]] = linalg.fill
// CHECK: scf.yield %[[Z]]
// CHECK: } else {
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#[[$SCALAR]], #{{.+}}]{{.*}} ins(%[[ID]] : tensor<i32>)
// CHECK: arith.cmpi slt, %{{.*}}, %[[V]]
// CHECK: tensor.extract %[[T]][%{{.*}}, %{{.*}}] : tensor<3x?xf32>
// CHECK: scf.yield %[[G]]
// CHECK: return %[[R]]
func.func @scalar_index(%t: tensor<3x?xf32>, %id: tensor<i32>) -> tensor<3xf32> {
  %y = rlx.gather %t, %id {axis = 1 : i64} : tensor<3x?xf32>, tensor<i32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// A table without rows has nothing to read: the result is zeros.
// CHECK-LABEL: func.func @empty_table
// CHECK-NOT: tensor.extract
// CHECK: %[[Z:.+]] = linalg.fill
// CHECK: return %[[Z]]
func.func @empty_table(%t: tensor<0x4xf32>, %ids: tensor<3xi32>) -> tensor<3x4xf32> {
  %y = rlx.gather %t, %ids {axis = 0 : i64} : tensor<0x4xf32>, tensor<3xi32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
