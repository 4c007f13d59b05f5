// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s

// Dynamic batch, partial rotation (n_rot = 6 of head_dim = 8, h = 3): one
// generic over dy. k = last index, i = k mod 8; the partner k +- h and the
// cos/sin column j = i mod h come from linalg.index and are clamped to k and
// 0 where i >= n_rot. The transposed rotation: first half dy*c + dy'*t,
// second half dy*c - dy'*t; dims >= n_rot copied.
// CHECK-LABEL: func.func @rope_backward
// CHECK-SAME: (%[[DY:.+]]: tensor<?x5x24xf32>, %[[COS:.+]]: tensor<5x4xf32>, %[[SIN:.+]]: tensor<5x4xf32>)
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[B:.+]] = tensor.dim %[[DY]], %[[C0]]
// CHECK: %[[E:.+]] = tensor.empty(%[[B]]) : tensor<?x5x24xf32>
// CHECK: %[[G:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[DY]] : tensor<?x5x24xf32>) outs(%[[E]] : tensor<?x5x24xf32>)
// CHECK-NEXT: ^bb0(%[[V:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[I0:.+]] = linalg.index 0
// CHECK-NEXT: %[[S:.+]] = linalg.index 1
// CHECK-NEXT: %[[K:.+]] = linalg.index 2
// CHECK-NEXT: %[[I:.+]] = arith.remui %[[K]], %[[C8]]
// CHECK-NEXT: %[[FIRST:.+]] = arith.cmpi ult, %[[I]], %[[C3]]
// CHECK-NEXT: %[[ROT:.+]] = arith.cmpi ult, %[[I]], %[[C6]]
// CHECK-NEXT: %[[IH:.+]] = arith.subi %[[I]], %[[C3]]
// CHECK-NEXT: %[[J:.+]] = arith.select %[[FIRST]], %[[I]], %[[IH]]
// CHECK-NEXT: %[[JC:.+]] = arith.select %[[ROT]], %[[J]], %[[C0]]
// CHECK-NEXT: %[[KP:.+]] = arith.addi %[[K]], %[[C3]]
// CHECK-NEXT: %[[KM:.+]] = arith.subi %[[K]], %[[C3]]
// CHECK-NEXT: %[[P:.+]] = arith.select %[[FIRST]], %[[KP]], %[[KM]]
// CHECK-NEXT: %[[PC:.+]] = arith.select %[[ROT]], %[[P]], %[[K]]
// CHECK-NEXT: %[[XP:.+]] = tensor.extract %[[DY]][%[[I0]], %[[S]], %[[PC]]]
// CHECK-NEXT: %[[CV:.+]] = tensor.extract %[[COS]][%[[S]], %[[JC]]]
// CHECK-NEXT: %[[SV:.+]] = tensor.extract %[[SIN]][%[[S]], %[[JC]]]
// CHECK-NEXT: %[[XC:.+]] = arith.mulf %[[V]], %[[CV]]
// CHECK-NEXT: %[[XT:.+]] = arith.mulf %[[XP]], %[[SV]]
// CHECK-NEXT: %[[MINUS:.+]] = arith.subf %[[XC]], %[[XT]]
// CHECK-NEXT: %[[PLUS:.+]] = arith.addf %[[XC]], %[[XT]]
// CHECK-NEXT: %[[Y:.+]] = arith.select %[[FIRST]], %[[PLUS]], %[[MINUS]]
// CHECK-NEXT: %[[R:.+]] = arith.select %[[ROT]], %[[Y]], %[[V]]
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK: return %[[G]]
func.func @rope_backward(%dy: tensor<?x5x24xf32>, %c: tensor<5x4xf32>, %s: tensor<5x4xf32>) -> tensor<?x5x24xf32> {
  %dx = rlx.rope_backward %dy, %c, %s {head_dim = 8 : i64, n_rot = 6 : i64} : tensor<?x5x24xf32>, tensor<5x4xf32>, tensor<5x4xf32> -> tensor<?x5x24xf32>
  return %dx : tensor<?x5x24xf32>
}

// -----

// Rank 2 [S, H*D]: the sequence index is dim 0.
// CHECK-LABEL: func.func @rope_backward_rank2
// CHECK-SAME: (%[[DY:.+]]: tensor<7x16xf64>, %[[COS:.+]]: tensor<7x2xf64>, %[[SIN:.+]]: tensor<7x2xf64>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[DY]] : tensor<7x16xf64>)
// CHECK: %[[S:.+]] = linalg.index 0
// CHECK: %[[K:.+]] = linalg.index 1
// CHECK: tensor.extract %[[DY]][%[[S]], %{{.+}}] : tensor<7x16xf64>
// CHECK: tensor.extract %[[COS]][%[[S]], %{{.+}}] : tensor<7x2xf64>
// CHECK: tensor.extract %[[SIN]][%[[S]], %{{.+}}] : tensor<7x2xf64>
func.func @rope_backward_rank2(%dy: tensor<7x16xf64>, %c: tensor<7x2xf64>, %s: tensor<7x2xf64>) -> tensor<7x16xf64> {
  %dx = rlx.rope_backward %dy, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<7x16xf64>, tensor<7x2xf64>, tensor<7x2xf64> -> tensor<7x16xf64>
  return %dx : tensor<7x16xf64>
}

// -----

// n_rot = 0 rotates nothing: dx = dy.
// CHECK-LABEL: func.func @rope_backward_none
// CHECK-SAME: (%[[DY:.+]]: tensor<2x3x8xf32>
// CHECK-NEXT: return %[[DY]]
func.func @rope_backward_none(%dy: tensor<2x3x8xf32>, %c: tensor<3x2xf32>, %s: tensor<3x2xf32>) -> tensor<2x3x8xf32> {
  %dx = rlx.rope_backward %dy, %c, %s {head_dim = 4 : i64, n_rot = 0 : i64} : tensor<2x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<2x3x8xf32>
  return %dx : tensor<2x3x8xf32>
}
