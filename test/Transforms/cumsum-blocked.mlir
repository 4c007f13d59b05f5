// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='cumsum-block-length=8' | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='cumsum-block-length=0' | FileCheck %s --check-prefix=OFF
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg='forward-cumsum-block-length=4 forward-cumsum-matrix-max-length=4' | FileCheck %s --check-prefix=SCAN
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg='forward-cumsum-block-length=0' | FileCheck %s --check-prefix=FWDOFF

// The blocked form, L = 20 in blocks of 8: dy padded with 4 zeros to
// [M, 3 * 8]; the block totals t (a reduction over the block), their reverse
// exclusive sum c = t * T3 (T3[j, i] = j > i), c broadcast over the block as
// the accumulator of the [M * 3, 8] x [8, 8] matmul with T8[j, i] = j >= i,
// then the padding sliced off. Dynamic batch.
// CHECK-LABEL: func.func @reverse_ragged
// CHECK-SAME: (%[[DY:.+]]: tensor<?x20xf32>)
// CHECK-NOT: scf.for
// CHECK: %[[PAD:.+]] = tensor.pad %[[DY]] low[0, 0] high[0, 4]
// CHECK: } : tensor<?x20xf32> to tensor<?x24xf32>
// CHECK: %[[M:.+]] = tensor.dim %[[PAD]]
// CHECK: %[[X3:.+]] = tensor.expand_shape %[[PAD]] {{\[\[}}0], [1, 2]] output_shape [%[[M]], 3, 8] : tensor<?x24xf32> into tensor<?x3x8xf32>
// CHECK: %[[T:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X3]] : tensor<?x3x8xf32>) outs(%{{.*}} : tensor<?x3xf32>)
// CHECK: arith.addf
// CHECK: %[[T3:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3xf32>)
// CHECK: arith.cmpi ugt
// CHECK: %[[C:.+]] = linalg.matmul ins(%[[T]], %[[T3]] : tensor<?x3xf32>, tensor<3x3xf32>)
// CHECK: %[[C3:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<?x3xf32>) outs(%{{.*}} : tensor<?x3x8xf32>)
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %[[X3]] {{\[\[}}0, 1], [2]] : tensor<?x3x8xf32> into tensor<?x8xf32>
// CHECK: %[[ACC:.+]] = tensor.collapse_shape %[[C3]] {{\[\[}}0, 1], [2]] : tensor<?x3x8xf32> into tensor<?x8xf32>
// CHECK: %[[T8:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: arith.cmpi uge
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[ROWS]], %[[T8]] : tensor<?x8xf32>, tensor<8x8xf32>) outs(%[[ACC]] : tensor<?x8xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [%[[M]], 3, 8]
// CHECK: %[[Y:.+]] = tensor.collapse_shape %[[E]] {{\[\[}}0], [1, 2]] : tensor<?x3x8xf32> into tensor<?x24xf32>
// CHECK: %[[OUT:.+]] = tensor.extract_slice %[[Y]][0, 0] [%[[M]], 20] [1, 1] : tensor<?x24xf32> to tensor<?x20xf32>
// CHECK: return %[[OUT]]
// With cumsum-block-length=0: one matmul with the 20 x 20 matrix, no pad.
// OFF-LABEL: func.func @reverse_ragged
// OFF-NOT: tensor.pad
// OFF: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x20xf32>, tensor<20x20xf32>)
// OFF-NOT: linalg.matmul
// OFF: return
func.func @reverse_ragged(%dy: tensor<?x20xf32>) -> tensor<?x20xf32> {
  %dx = rlx.cumsum_backward %dy {axis = 1 : i64} : tensor<?x20xf32> -> tensor<?x20xf32>
  return %dx : tensor<?x20xf32>
}

// -----

// L = 16, a multiple of the block: no pad or slice; exclusive within the
// block (T8[j, i] = j > i) and for the carry (T2[j, i] = j > i).
// CHECK-LABEL: func.func @reverse_exclusive_multiple
// CHECK-NOT: tensor.pad
// CHECK: arith.cmpi ugt
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x2xf64>, tensor<2x2xf64>)
// CHECK: arith.cmpi ugt
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x8xf64>, tensor<8x8xf64>)
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @reverse_exclusive_multiple(%dy: tensor<4x16xf64>) -> tensor<4x16xf64> {
  %dx = rlx.cumsum_backward %dy {axis = 1 : i64, exclusive} : tensor<4x16xf64> -> tensor<4x16xf64>
  return %dx : tensor<4x16xf64>
}

// -----

// The forward exclusive sum along axis 0 (moved last, leading dims
// collapsed), L = 20 in blocks of 4, the 5 block totals more than
// forward-cumsum-matrix-max-length = 4: their exclusive sum is the scan over
// the 5 blocks, forward (no reversed index), then the blocks' matmul with
// T4[j, i] = j < i.
// SCAN-LABEL: func.func @forward_scan_carry
// SCAN-DAG: %[[C5:.+]] = arith.constant 5 : index
// SCAN: linalg.transpose {{.*}} permutation = [1, 2, 0]
// SCAN: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 5, 4] : tensor<?x20xf64> into tensor<?x5x4xf64>
// SCAN: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x5xf64>)
// SCAN: scf.for %{{.*}} = %{{.*}} to %[[C5]]
// SCAN-NOT: arith.subi
// SCAN: scf.yield
// SCAN: arith.cmpi ult
// SCAN: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x4xf64>, tensor<4x4xf64>)
// SCAN: linalg.transpose {{.*}} permutation = [2, 0, 1]
// FWDOFF-LABEL: func.func @forward_scan_carry
// FWDOFF-NOT: scf.for
// FWDOFF: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x20xf64>, tensor<20x20xf64>)
func.func @forward_scan_carry(%x: tensor<20x?x3xf64>) -> tensor<20x?x3xf64> {
  %y = rlx.cumsum %x {axis = 0 : i64, exclusive} : tensor<20x?x3xf64> -> tensor<20x?x3xf64>
  return %y : tensor<20x?x3xf64>
}
