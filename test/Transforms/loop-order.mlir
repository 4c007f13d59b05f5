// RUN: rlx-opt %s --split-input-file --rlx-loop-order | FileCheck %s

// A matmul iterates (m, n, k); with n innermost the inner loop streams rows
// of B and C: the generic's loops become (m, k, n).
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// A row reduction keeps its contiguous reduction axis innermost, and a
// broadcast row statistic does not vote.
// CHECK-LABEL: func.func @row_ops
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: iterator_types = ["parallel", "parallel"]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_ops(%x: tensor<64x128xf32>, %acc: tensor<64xf32>) -> tensor<64x128xf32> {
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf32>) outs(%acc : tensor<64xf32>) {
  ^bb0(%v: f32, %a: f32):
    %t = arith.addf %v, %a : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<64x128xf32>, tensor<64xf32>) outs(%x : tensor<64x128xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %t = arith.subf %v, %m : f32
    linalg.yield %t : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
