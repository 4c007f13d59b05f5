// The L x L matrix and the scan; the blocked form (the default for a static
// axis longer than forward-cumsum-block-length) is in cumsum-blocked.mlir.
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg='forward-cumsum-block-length=0' | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg='forward-cumsum-matrix-max-length=4' | FileCheck %s --check-prefix=OPT

// y = x * T with T[j, i] = (j <= i): one triangular generic and one matmul.
// CHECK-LABEL: func.func @inclusive
// CHECK-SAME: (%[[X:.+]]: tensor<?x16xf32>)
// CHECK-NOT: scf.for
// CHECK: %[[T:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x16xf32>)
// CHECK: arith.cmpi ule
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[X]], %[[T]] : tensor<?x16xf32>, tensor<16x16xf32>)
// CHECK-NOT: rlx.
// CHECK: return %[[MM]]
// With forward-cumsum-matrix-max-length=4 the 16-long axis is scanned.
// OPT-LABEL: func.func @inclusive
// OPT-NOT: linalg.matmul
// OPT: scf.for
func.func @inclusive(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %y = rlx.cumsum %x {axis = -1 : i64} : tensor<?x16xf32> -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// Exclusive, axis 0 of a 3-D tensor: transposed to the end, T[j, i] = (j < i).
// CHECK-LABEL: func.func @exclusive_axis0
// CHECK: linalg.transpose {{.*}} permutation = [1, 2, 0]
// CHECK: tensor.collapse_shape {{.*}} : tensor<2x?x5xf64> into tensor<?x5xf64>
// CHECK: linalg.generic
// CHECK: arith.cmpi ult
// CHECK: linalg.matmul
// CHECK: tensor.expand_shape
// CHECK: linalg.transpose {{.*}} permutation = [2, 0, 1]
func.func @exclusive_axis0(%x: tensor<5x2x?xf64>) -> tensor<5x2x?xf64> {
  %y = rlx.cumsum %x {axis = 0 : i64, exclusive} : tensor<5x2x?xf64> -> tensor<5x2x?xf64>
  return %y : tensor<5x2x?xf64>
}

// -----

// A dynamic axis scans forward: acc += x[:, k]; y[:, k] = acc.
// CHECK-LABEL: func.func @dynamic_axis
// CHECK-SAME: (%[[X:.+]]: tensor<3x?xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: %[[R:.+]]:2 = scf.for %[[K:.+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.+]] = %{{.*}}, %[[ACC:.+]] = %{{.*}})
// CHECK-NOT: arith.subi
// CHECK: %[[S:.+]] = tensor.extract_slice %[[X]][0, %[[K]]] [3, 1] [1, 1] : tensor<3x?xf32> to tensor<3xf32>
// CHECK: %[[NEW:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<3xf32>) outs(%[[ACC]] : tensor<3xf32>)
// CHECK: tensor.insert_slice %[[NEW]] into %[[OUT]][0, %[[K]]]
// CHECK: return %[[R]]#0
func.func @dynamic_axis(%x: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %y = rlx.cumsum %x {axis = 1 : i64} : tensor<3x?xf32> -> tensor<3x?xf32>
  return %y : tensor<3x?xf32>
}

// -----

// L = 1000 > 256 scans too.
// CHECK-LABEL: func.func @long_axis
// CHECK-NOT: linalg.matmul
// CHECK: scf.for
func.func @long_axis(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %y = rlx.cumsum %x {axis = 0 : i64} : tensor<1000xf32> -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}
