// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s

// Dynamic batch, partial rotation (n_rot = 6 of head_dim = 8, h = 3): dy
// split into heads [B, S, H, D]; one generic over (b, s, head, k < 2,
// j < h) reads the halves a = dy[.., 0:3] and b = dy[.., 3:6], the tables'
// first 3 columns and a [2] table k == 0, and writes the transposed
// rotation (a c + b t for k = 0, b c - a t for k = 1) as one result, the
// columns [0, 6) of dy viewed [.., 2, 3] (dims >= n_rot are dy itself); no
// gathers, and one result, so that it bufferizes in place.
// CHECK-DAG: #[[HALF:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[TABLE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-DAG: #[[K:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d3)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @rope_backward
// CHECK-SAME: (%[[DY:.+]]: tensor<?x5x24xf32>, %[[COS:.+]]: tensor<5x4xf32>, %[[SIN:.+]]: tensor<5x4xf32>)
// CHECK: %[[FIRST:.+]] = arith.constant dense<[true, false]> : tensor<2xi1>
// CHECK: %[[DY4:.+]] = tensor.expand_shape %[[DY]] {{\[}}[0], [1], [2, 3]] output_shape [%{{.+}}, 5, 3, 8] : tensor<?x5x24xf32> into tensor<?x5x3x8xf32>
// CHECK: %[[A:.+]] = tensor.extract_slice %[[DY4]][0, 0, 0, 0] [%{{.+}}, 5, 3, 3] [1, 1, 1, 1]
// CHECK: %[[B:.+]] = tensor.extract_slice %[[DY4]][0, 0, 0, 3] [%{{.+}}, 5, 3, 3] [1, 1, 1, 1]
// CHECK: %[[C:.+]] = tensor.extract_slice %[[COS]][0, 0] [5, 3] [1, 1]
// CHECK: %[[T:.+]] = tensor.extract_slice %[[SIN]][0, 0] [5, 3] [1, 1]
// CHECK: %[[ROT:.+]] = tensor.extract_slice %[[DY4]][0, 0, 0, 0] [%{{.+}}, 5, 3, 6] [1, 1, 1, 1]
// CHECK: %[[PAIRS:.+]] = tensor.expand_shape %[[ROT]] {{\[}}[0], [1], [2], [3, 4]] output_shape [%{{.+}}, 5, 3, 2, 3] : tensor<?x5x3x6xf32> into tensor<?x5x3x2x3xf32>
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#[[HALF]], #[[HALF]], #[[TABLE]], #[[TABLE]], #[[K]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[A]], %[[B]], %[[C]], %[[T]], %[[FIRST]] : {{.+}}) outs(%[[PAIRS]] :
// CHECK-NEXT: ^bb0(%[[VA:.+]]: f32, %[[VB:.+]]: f32, %[[VC:.+]]: f32, %[[VT:.+]]: f32, %[[VK:.+]]: i1, %{{.+}}: f32):
// CHECK-NEXT: %[[AC:.+]] = arith.mulf %[[VA]], %[[VC]]
// CHECK-NEXT: %[[BT:.+]] = arith.mulf %[[VB]], %[[VT]]
// CHECK-NEXT: %[[BC:.+]] = arith.mulf %[[VB]], %[[VC]]
// CHECK-NEXT: %[[AT:.+]] = arith.mulf %[[VA]], %[[VT]]
// CHECK-NEXT: %[[YA:.+]] = arith.addf %[[AC]], %[[BT]]
// CHECK-NEXT: %[[YB:.+]] = arith.subf %[[BC]], %[[AT]]
// CHECK-NEXT: %[[Y:.+]] = arith.select %[[VK]], %[[YA]], %[[YB]]
// CHECK-NEXT: linalg.yield %[[Y]]
// CHECK-NOT: tensor.extract %
// CHECK: %[[GC:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1], [2], [3, 4]]
// CHECK: %[[I:.+]] = tensor.insert_slice %[[GC]] into %[[DY4]][0, 0, 0, 0]
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[I]] {{\[}}[0], [1], [2, 3]] : tensor<?x5x3x8xf32> into tensor<?x5x24xf32>
// CHECK: return %[[R]]
func.func @rope_backward(%dy: tensor<?x5x24xf32>, %c: tensor<5x4xf32>, %s: tensor<5x4xf32>) -> tensor<?x5x24xf32> {
  %dx = rlx.rope_backward %dy, %c, %s {head_dim = 8 : i64, n_rot = 6 : i64} : tensor<?x5x24xf32>, tensor<5x4xf32>, tensor<5x4xf32> -> tensor<?x5x24xf32>
  return %dx : tensor<?x5x24xf32>
}

// -----

// Rank 2 [S, H*D], full rotation: the sequence is loop 0, the tables are
// read at (s, j), and the rotation is written into a fresh tensor.
// CHECK-DAG: #[[TABLE2:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-LABEL: func.func @rope_backward_rank2
// CHECK-SAME: (%[[DY:.+]]: tensor<7x16xf64>, %[[COS:.+]]: tensor<7x2xf64>, %[[SIN:.+]]: tensor<7x2xf64>)
// CHECK: tensor.expand_shape %[[DY]] {{\[}}[0], [1, 2]] output_shape [7, 4, 4]
// CHECK: %[[E:.+]] = tensor.empty() : tensor<7x4x4xf64>
// CHECK: %[[PAIRS:.+]] = tensor.expand_shape %[[E]] {{\[}}[0], [1], [2, 3]] output_shape [7, 4, 2, 2]
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #[[TABLE2]], #[[TABLE2]], #{{.+}}, #{{.+}}], {{.*}} ins({{.+}}, %[[COS]], %[[SIN]], %{{.+}} : tensor<7x4x2xf64>, tensor<7x4x2xf64>, tensor<7x2xf64>, tensor<7x2xf64>, tensor<2xi1>) outs(%[[PAIRS]] :
// CHECK: %[[GC:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1], [2, 3]] : tensor<7x4x2x2xf64> into tensor<7x4x4xf64>
// CHECK: tensor.collapse_shape %[[GC]] {{.+}} : tensor<7x4x4xf64> into tensor<7x16xf64>
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
