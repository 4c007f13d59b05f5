// RUN: rlx-opt %s --split-input-file --rlx-grad | FileCheck %s

// matmul C = A B: dA[m, k] = sum_n dC[m, n] B[k, n] and dB[k, n] =
// sum_m dC[m, n] A[m, k]: one generic each over the loops (m, n, k),
// writing through A's (B's) map, so n (m) becomes a reduction.
// CHECK-DAG: #[[MA:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MB:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MC:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @mm_grad
// CHECK-SAME: (%[[A:.+]]: tensor<4x3xf32>, %[[B:.+]]: tensor<3x5xf32>, %[[DC:.+]]: tensor<4x5xf32>)
// CHECK: %[[DA:.+]] = linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]], #[[MA]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[A]], %[[B]], %[[DC]] : {{.*}})
// CHECK-NEXT: ^bb0(%{{.+}}: f32, %[[BV:.+]]: f32, %[[DV:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[DV]], %[[BV]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: %[[DB:.+]] = linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]], #[[MB]]], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK: return %{{.+}}, %[[DA]], %[[DB]]
func.func @mm(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> attributes {rlx.grad} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %y = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%i : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

// broadcast: the adjoint sums dy over the broadcast dims (a reduction
// generic accumulating into zeros of the input's shape).
// CHECK-LABEL: func.func @bc_grad
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>, %[[O:.+]]: tensor<4x?xf32>, %[[DY:.+]]: tensor<4x?xf32>)
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?xf32>)
// CHECK: %[[DX:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]} ins(%[[X]], %[[DY]] : tensor<?xf32>, tensor<4x?xf32>) outs(%[[Z]] : tensor<?xf32>)
// CHECK: arith.addf
// CHECK: return %{{.+}}, %[[DX]]
func.func @bc(%x: tensor<?xf32>, %o: tensor<4x?xf32>) -> tensor<4x?xf32> attributes {rlx.grad = array<i64: 0>} {
  %y = linalg.broadcast ins(%x : tensor<?xf32>) outs(%o : tensor<4x?xf32>) dimensions = [0]
  return %y : tensor<4x?xf32>
}

// -----

// sum reduction to a scalar loss (no cotangent argument: it is 1): dx is dy
// broadcast, i.e. one parallel generic reading the 0-d cotangent.
// CHECK-LABEL: func.func @sum_grad
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xf32>) -> (tensor<f32>, tensor<4x5xf32>)
// CHECK: %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[DX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[ONE]] : tensor<4x5xf32>, tensor<f32>)
// CHECK: return %{{.+}}, %[[DX]]
func.func @sum(%x: tensor<4x5xf32>) -> tensor<f32> attributes {rlx.grad} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %y = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %y : tensor<f32>
}

// -----

// max reduction: dy flows where the input equals the result.
// CHECK-LABEL: func.func @max_grad
// CHECK-SAME: (%[[X:.+]]: tensor<3x6xf32>, %[[DY:.+]]: tensor<3xf32>)
// CHECK: %[[M:.+]] = linalg.reduce
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[DY]], %[[M]] : tensor<3x6xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[DV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[EQ:.+]] = arith.cmpf oeq, %[[XV]], %[[MV]] : f32
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[G:.+]] = arith.select %[[EQ]], %[[DV]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[G]]
func.func @max(%x: tensor<3x6xf32>) -> tensor<3xf32> attributes {rlx.grad} {
  %z = arith.constant -1.0e30 : f32
  %e = tensor.empty() : tensor<3xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %y = linalg.reduce ins(%x : tensor<3x6xf32>) outs(%i : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %y : tensor<3xf32>
}

// -----

// An elementwise generic: the body is recomputed and its scalar reverse
// rules run (tanh: d (1 - y^2)); the input read through a broadcast map gets
// a reduction.
// CHECK-LABEL: func.func @gen_grad
// CHECK-SAME: (%[[X:.+]]: tensor<3x4xf32>, %[[B:.+]]: tensor<4xf32>, %[[DY:.+]]: tensor<3x4xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[B]], %[[DY]] : {{.*}}) outs(%{{.+}} : tensor<3x4xf32>)
// CHECK: math.tanh
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]} ins(%[[X]], %[[B]], %[[DY]] : {{.*}}) outs(%{{.+}} : tensor<4xf32>)
func.func @gen(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> attributes {rlx.grad} {
  %e = tensor.empty() : tensor<3x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<3x4xf32>, tensor<4xf32>) outs(%e : tensor<3x4xf32>) {
    ^bb0(%xv: f32, %bv: f32, %o: f32):
      %s = arith.addf %xv, %bv : f32
      %t = math.tanh %s : f32
      linalg.yield %t : f32
  } -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
