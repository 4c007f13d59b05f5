// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='cumsum-tile-bytes=0' | FileCheck %s --check-prefix=OFF
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s --check-prefix=FWD

// The tiled scan along the last axis: 48 rows in blocks of 16 (at most half
// the rows, for two threads) on an scf.forall; in each block the 2048-long
// axis in chunks of 512 (16 x 512 f32 = the 32 KiB tile), taken last to
// first (reverse), each transposed to [512, 16], scanned with the running
// sums of the 16 rows carried from the chunk before, and transposed back.
// No triangular matmul. Off, the blocked matmul form.
// CHECK-LABEL: func.func @reverse_chunks
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK: scf.forall (%[[B:.+]]) in (3) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<48x2048xf32>)
// CHECK: %[[ROW:.+]] = arith.muli %[[B]], %{{.+}} : index
// CHECK: %[[BLOCK:.+]] = tensor.extract_slice %[[OUT]][%[[ROW]], 0] [16, 2048] [1, 1]
// CHECK: %[[ACC0:.+]] = linalg.fill {{.*}} -> tensor<16xf32>
// CHECK: %[[CHUNKS:.+]]:2 = scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[O:.+]] = %[[BLOCK]], %[[ACC:.+]] = %[[ACC0]]) -> (tensor<16x2048xf32>, tensor<16xf32>)
// CHECK: %[[IDX:.+]] = arith.subi %[[C3]], %[[K]] : index
// CHECK: %[[COL:.+]] = arith.muli %[[IDX]], %[[C512]] : index
// CHECK: %[[TILE:.+]] = tensor.extract_slice %arg0[%[[ROW]], %[[COL]]] [16, 512] [1, 1]
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[TILE]] : tensor<16x512xf32>) outs(%{{.+}} : tensor<512x16xf32>) permutation = [1, 0]
// CHECK: %[[SCAN:.+]]:2 = scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %[[ACC]]) -> (tensor<512x16xf32>, tensor<16xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<16xf32>)
// CHECK: %[[BACK:.+]] = linalg.transpose ins(%[[SCAN]]#0 : tensor<512x16xf32>) outs(%{{.+}} : tensor<16x512xf32>) permutation = [1, 0]
// CHECK: %[[NEXT:.+]] = tensor.insert_slice %[[BACK]] into %[[O]][0, %[[COL]]] [16, 512] [1, 1]
// CHECK: scf.yield %[[NEXT]], %[[SCAN]]#1
// CHECK: tensor.parallel_insert_slice %[[CHUNKS]]#0 into %[[OUT]][%[[ROW]], 0] [16, 2048] [1, 1]
// CHECK-NOT: linalg.matmul
// OFF-LABEL: func.func @reverse_chunks
// OFF-NOT: scf.forall
// OFF: linalg.matmul
func.func @reverse_chunks(%dy: tensor<48x2048xf32>) -> tensor<48x2048xf32> {
  %dx = rlx.cumsum_backward %dy {axis = 1 : i64} : tensor<48x2048xf32> -> tensor<48x2048xf32>
  return %dx : tensor<48x2048xf32>
}

// -----

// Whole rows in one tile (48 f64 = 384 B a row): 4 x 8 x 48 collapsed to 32
// rows, one block of 16 rows per thread, one chunk; the forward cumsum
// (rlx-lower-to-linalg) the same way, in order.
// CHECK-LABEL: func.func @whole_rows
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<4x8x48xf64> into tensor<32x48xf64>
// CHECK: scf.forall (%{{.+}}) in (2)
// CHECK: linalg.transpose ins(%{{.+}} : tensor<16x48xf64>)
// FWD-LABEL: func.func @whole_rows
// FWD: scf.forall (%{{.+}}) in (2)
// FWD: linalg.transpose ins(%{{.+}} : tensor<16x48xf64>)
func.func @whole_rows(%x: tensor<4x8x48xf64>) -> (tensor<4x8x48xf64>, tensor<4x8x48xf64>) {
  %y = rlx.cumsum %x {axis = 2 : i64} : tensor<4x8x48xf64> -> tensor<4x8x48xf64>
  %dx = rlx.cumsum_backward %x {axis = -1 : i64, exclusive} : tensor<4x8x48xf64> -> tensor<4x8x48xf64>
  return %y, %dx : tensor<4x8x48xf64>, tensor<4x8x48xf64>
}

// -----

// Not tiled: rows that 16 does not divide, a dynamic batch, the axis not
// last, or an axis no longer than the block length (the L x L matrix).
// CHECK-LABEL: func.func @untiled
// CHECK-NOT: scf.forall
// CHECK: return
func.func @untiled(%a: tensor<24x100xf32>, %b: tensor<?x100xf32>, %c: tensor<100x32xf32>, %d: tensor<32x32xf32>) -> (tensor<24x100xf32>, tensor<?x100xf32>, tensor<100x32xf32>, tensor<32x32xf32>) {
  %ra = rlx.cumsum_backward %a {axis = 1 : i64} : tensor<24x100xf32> -> tensor<24x100xf32>
  %rb = rlx.cumsum_backward %b {axis = 1 : i64} : tensor<?x100xf32> -> tensor<?x100xf32>
  %rc = rlx.cumsum_backward %c {axis = 0 : i64} : tensor<100x32xf32> -> tensor<100x32xf32>
  %rd = rlx.cumsum_backward %d {axis = 1 : i64} : tensor<32x32xf32> -> tensor<32x32xf32>
  return %ra, %rb, %rc, %rd : tensor<24x100xf32>, tensor<?x100xf32>, tensor<100x32xf32>, tensor<32x32xf32>
}
