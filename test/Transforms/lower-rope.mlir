// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// Full rotation (n_rot = head_dim = 4, h = 2), dynamic batch: one generic over
// x. First half x*c - x'*t, second half x*c + x'*t, where x' is the partner
// element k +- h and c, t = cos/sin[s, i mod h].
// CHECK-LABEL: func.func @rope
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8xf32>, %[[COS:.+]]: tensor<3x2xf32>, %[[SIN:.+]]: tensor<3x2xf32>)
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x3x8xf32>) outs(%{{.+}} : tensor<?x3x8xf32>)
// CHECK-NEXT: ^bb0(%[[V:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[K:.+]] = linalg.index 2
// CHECK: %[[I:.+]] = arith.remui %[[K]], %[[C4]]
// CHECK: %[[FIRST:.+]] = arith.cmpi ult, %[[I]], %[[C2]]
// CHECK: %[[ROT:.+]] = arith.cmpi ult, %[[I]], %[[C4]]
// CHECK: %[[XP:.+]] = tensor.extract %[[X]]
// CHECK: %[[CV:.+]] = tensor.extract %[[COS]]
// CHECK: %[[SV:.+]] = tensor.extract %[[SIN]]
// CHECK: %[[XC:.+]] = arith.mulf %[[V]], %[[CV]]
// CHECK: %[[XT:.+]] = arith.mulf %[[XP]], %[[SV]]
// CHECK: %[[MINUS:.+]] = arith.subf %[[XC]], %[[XT]]
// CHECK: %[[PLUS:.+]] = arith.addf %[[XC]], %[[XT]]
// CHECK: %[[Y:.+]] = arith.select %[[FIRST]], %[[MINUS]], %[[PLUS]]
// CHECK: %[[R:.+]] = arith.select %[[ROT]], %[[Y]], %[[V]]
// CHECK: linalg.yield %[[R]]
// CHECK-NOT: rlx.
// CHECK: return %[[G]]
func.func @rope(%x: tensor<?x3x8xf32>, %c: tensor<3x2xf32>, %s: tensor<3x2xf32>) -> tensor<?x3x8xf32> {
  %y = rlx.rope %x, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<?x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<?x3x8xf32>
  return %y : tensor<?x3x8xf32>
}

// -----

// Fully dynamic shapes lower too.
// CHECK-LABEL: func.func @rope_dynamic
// CHECK: tensor.dim
// CHECK: linalg.generic
// CHECK: tensor.extract
// CHECK-NOT: rlx.
func.func @rope_dynamic(%x: tensor<?x?xf64>, %c: tensor<?x?xf64>, %s: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %y = rlx.rope %x, %c, %s {head_dim = 6 : i64, n_rot = 2 : i64} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64>
  return %y : tensor<?x?xf64>
}
