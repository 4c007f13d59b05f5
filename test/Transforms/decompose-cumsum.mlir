// The L x L matrix and the scan; the blocked form (the default for a static
// axis longer than cumsum-block-length) is in cumsum-blocked.mlir.
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='cumsum-block-length=0' | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='cumsum-matrix-max-length=4' | FileCheck %s --check-prefix=OPT

// dx = dy * T with T[j, i] = (j >= i): one triangular ones-matrix generic and
// one matmul over [batch, L]; no loop. Dynamic batch.
// CHECK-LABEL: func.func @last_axis
// CHECK-SAME: (%[[DY:.+]]: tensor<?x8xf32>)
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: scf.for
// CHECK: %[[TE:.+]] = tensor.empty() : tensor<8x8xf32>
// CHECK: %[[T:.+]] = linalg.generic {{.*}} outs(%[[TE]] : tensor<8x8xf32>)
// CHECK: %[[J:.+]] = linalg.index 0
// CHECK: %[[I:.+]] = linalg.index 1
// CHECK: %[[C:.+]] = arith.cmpi uge, %[[J]], %[[I]]
// CHECK: arith.select %[[C]], %[[ONE]], %[[ZERO]]
// CHECK: %[[ACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[DY]], %[[T]] : tensor<?x8xf32>, tensor<8x8xf32>) outs(%[[ACC]] : tensor<?x8xf32>)
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.matmul
// CHECK: return %[[MM]]
// OPT-LABEL: func.func @last_axis
// OPT-NOT: linalg.matmul
// OPT: scf.for
func.func @last_axis(%dy: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %dx = rlx.cumsum_backward %dy {axis = 1 : i64} : tensor<?x8xf32> -> tensor<?x8xf32>
  return %dx : tensor<?x8xf32>
}

// -----

// Exclusive: the strictly triangular T[j, i] = (j > i).
// CHECK-LABEL: func.func @exclusive
// CHECK: linalg.generic
// CHECK: arith.cmpi ugt
// CHECK: linalg.matmul
func.func @exclusive(%dy: tensor<2x5xf64>) -> tensor<2x5xf64> {
  %dx = rlx.cumsum_backward %dy {axis = -1 : i64, exclusive} : tensor<2x5xf64> -> tensor<2x5xf64>
  return %dx : tensor<2x5xf64>
}

// -----

// A middle axis is moved last, leading dims collapsed to [N*C, L], multiplied
// and moved back.
// CHECK-LABEL: func.func @middle_axis
// CHECK-SAME: (%[[DY:.+]]: tensor<?x6x3xf32>)
// CHECK: %[[TR:.+]] = linalg.transpose ins(%[[DY]] : tensor<?x6x3xf32>) outs(%{{.*}} : tensor<?x3x6xf32>) permutation = [0, 2, 1]
// CHECK: %[[COL:.+]] = tensor.collapse_shape %[[TR]] {{\[\[}}0, 1], [2]] : tensor<?x3x6xf32> into tensor<?x6xf32>
// CHECK: %[[T:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x6xf32>)
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[COL]], %[[T]] : tensor<?x6xf32>, tensor<6x6xf32>)
// CHECK: %[[EXP:.+]] = tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [%{{.*}}, 3, 6] : tensor<?x6xf32> into tensor<?x3x6xf32>
// CHECK: %[[BACK:.+]] = linalg.transpose ins(%[[EXP]] : tensor<?x3x6xf32>) outs(%{{.*}} : tensor<?x6x3xf32>) permutation = [0, 2, 1]
// CHECK: return %[[BACK]]
func.func @middle_axis(%dy: tensor<?x6x3xf32>) -> tensor<?x6x3xf32> {
  %dx = rlx.cumsum_backward %dy {axis = 1 : i64} : tensor<?x6x3xf32> -> tensor<?x6x3xf32>
  return %dx : tensor<?x6x3xf32>
}

// -----

// L = 300 > 256: the O(L) reverse scan, i = L-1-k, carrying one slice of the
// running sum: acc += dy[:, i]; dx[:, i] = acc.
// CHECK-LABEL: func.func @long_axis
// CHECK-SAME: (%[[DY:.+]]: tensor<?x300xf32>)
// CHECK-DAG: %[[C299:.+]] = arith.constant 299 : index
// CHECK-DAG: %[[C300:.+]] = arith.constant 300 : index
// CHECK-NOT: linalg.matmul
// CHECK: %[[ACC0:.+]] = linalg.fill {{.*}} -> tensor<?xf32>
// CHECK: %[[R:.+]]:2 = scf.for %[[K:.+]] = %{{.*}} to %[[C300]] step %{{.*}} iter_args(%[[OUT:.+]] = %{{.*}}, %[[ACC:.+]] = %[[ACC0]])
// CHECK: %[[I:.+]] = arith.subi %[[C299]], %[[K]]
// CHECK: %[[S:.+]] = tensor.extract_slice %[[DY]][0, %[[I]]] [%{{.*}}, 1] [1, 1] : tensor<?x300xf32> to tensor<?xf32>
// CHECK: %[[NEW:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<?xf32>) outs(%[[ACC]] : tensor<?xf32>)
// CHECK: arith.addf
// CHECK: %[[W:.+]] = tensor.insert_slice %[[NEW]] into %[[OUT]][0, %[[I]]] [%{{.*}}, 1] [1, 1]
// CHECK: scf.yield %[[W]], %[[NEW]]
// CHECK: return %[[R]]#0
func.func @long_axis(%dy: tensor<?x300xf32>) -> tensor<?x300xf32> {
  %dx = rlx.cumsum_backward %dy {axis = 1 : i64} : tensor<?x300xf32> -> tensor<?x300xf32>
  return %dx : tensor<?x300xf32>
}

// -----

// A dynamic axis always scans; exclusive writes the running sum before adding
// the slice: dx[i, :] = acc; acc += dy[i, :].
// CHECK-LABEL: func.func @dynamic_axis_exclusive
// CHECK-SAME: (%[[DY:.+]]: tensor<?x4xf64>)
// CHECK: %[[L:.+]] = tensor.dim %[[DY]], %{{.*}} : tensor<?x4xf64>
// CHECK: scf.for %[[K:.+]] = %{{.*}} to %[[L]] step %{{.*}} iter_args(%[[OUT:.+]] = %{{.*}}, %[[ACC:.+]] = %{{.*}})
// CHECK: %[[S:.+]] = tensor.extract_slice %[[DY]]
// CHECK: %[[W:.+]] = tensor.insert_slice %[[ACC]] into %[[OUT]]
// CHECK: %[[NEW:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<4xf64>) outs(%[[ACC]] : tensor<4xf64>)
// CHECK: scf.yield %[[W]], %[[NEW]]
func.func @dynamic_axis_exclusive(%dy: tensor<?x4xf64>) -> tensor<?x4xf64> {
  %dx = rlx.cumsum_backward %dy {axis = 0 : i64, exclusive} : tensor<?x4xf64> -> tensor<?x4xf64>
  return %dx : tensor<?x4xf64>
}

// -----

// Rank 1: [L] is expanded to [1, L] for the matmul and collapsed back.
// CHECK-LABEL: func.func @rank1
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 7] : tensor<7xf32> into tensor<1x7xf32>
// CHECK: linalg.matmul
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x7xf32> into tensor<7xf32>
// OPT-LABEL: func.func @rank1
// OPT: scf.for
func.func @rank1(%dy: tensor<7xf32>) -> tensor<7xf32> {
  %dx = rlx.cumsum_backward %dy {axis = 0 : i64} : tensor<7xf32> -> tensor<7xf32>
  return %dx : tensor<7xf32>
}
