// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// Full rotation (n_rot = head_dim = 4, h = 2), dynamic batch: x split into
// heads; one generic over (b, s, head, k < 2, j < 2) computes the half k,
// a c - b t or b c + a t, from a = x[.., 0:2], b = x[.., 2:4] and
// cos/sin[s, j].
// CHECK-LABEL: func.func @rope
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8xf32>, %[[COS:.+]]: tensor<3x2xf32>, %[[SIN:.+]]: tensor<3x2xf32>)
// CHECK: %[[X4:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1], [2, 3]] output_shape [%{{.+}}, 3, 2, 4]
// CHECK: %[[A:.+]] = tensor.extract_slice %[[X4]][0, 0, 0, 0] [%{{.+}}, 3, 2, 2]
// CHECK: %[[B:.+]] = tensor.extract_slice %[[X4]][0, 0, 0, 2] [%{{.+}}, 3, 2, 2]
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[A]], %[[B]], %[[COS]], %[[SIN]], %{{.+}} :
// CHECK-NEXT: ^bb0(%[[VA:.+]]: f32, %[[VB:.+]]: f32, %[[VC:.+]]: f32, %[[VT:.+]]: f32, %[[VK:.+]]: i1, %{{.+}}: f32):
// CHECK-NEXT: %[[AC:.+]] = arith.mulf %[[VA]], %[[VC]]
// CHECK-NEXT: %[[BT:.+]] = arith.mulf %[[VB]], %[[VT]]
// CHECK-NEXT: %[[BC:.+]] = arith.mulf %[[VB]], %[[VC]]
// CHECK-NEXT: %[[AT:.+]] = arith.mulf %[[VA]], %[[VT]]
// CHECK-NEXT: %[[YA:.+]] = arith.subf %[[AC]], %[[BT]]
// CHECK-NEXT: %[[YB:.+]] = arith.addf %[[BC]], %[[AT]]
// CHECK-NEXT: %[[Y:.+]] = arith.select %[[VK]], %[[YA]], %[[YB]]
// CHECK-NEXT: linalg.yield %[[Y]]
// CHECK: tensor.collapse_shape %[[G]]
// CHECK: tensor.insert_slice
// CHECK: %[[R:.+]] = tensor.collapse_shape
// CHECK-NOT: rlx.
// CHECK: return %[[R]]
func.func @rope(%x: tensor<?x3x8xf32>, %c: tensor<3x2xf32>, %s: tensor<3x2xf32>) -> tensor<?x3x8xf32> {
  %y = rlx.rope %x, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<?x3x8xf32>, tensor<3x2xf32>, tensor<3x2xf32> -> tensor<?x3x8xf32>
  return %y : tensor<?x3x8xf32>
}

// -----

// Fully dynamic shapes lower too.
// CHECK-LABEL: func.func @rope_dynamic
// CHECK: tensor.dim
// CHECK: tensor.expand_shape
// CHECK: linalg.generic
// CHECK-NOT: rlx.
func.func @rope_dynamic(%x: tensor<?x?xf64>, %c: tensor<?x?xf64>, %s: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %y = rlx.rope %x, %c, %s {head_dim = 6 : i64, n_rot = 2 : i64} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64>
  return %y : tensor<?x?xf64>
}
