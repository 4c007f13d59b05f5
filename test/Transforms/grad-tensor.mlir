// RUN: rlx-opt %s --split-input-file --rlx-grad | FileCheck %s

// expand_shape <-> collapse_shape; extract_slice -> insert_slice into zeros.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[P:.+]]: tensor<20xf32>, %[[DY:.+]]: tensor<2x3xf32>)
// CHECK: %[[DS:.+]] = tensor.collapse_shape %[[DY]] {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<20xf32>)
// CHECK: %[[DP:.+]] = tensor.insert_slice %[[DS]] into %[[Z]][4] [6] [1] : tensor<6xf32> into tensor<20xf32>
// CHECK: return %{{.+}}, %[[DP]]
func.func @f(%p: tensor<20xf32>) -> tensor<2x3xf32> attributes {rlx.grad} {
  %s = tensor.extract_slice %p[4] [6] [1] : tensor<20xf32> to tensor<6xf32>
  %y = tensor.expand_shape %s [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// collapse_shape of a dynamic tensor: expand_shape back to the source sizes.
// CHECK-LABEL: func.func @c_grad
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>, %[[DY:.+]]: tensor<?xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3xf32>
// CHECK: tensor.expand_shape %[[DY]] {{\[\[}}0, 1]] output_shape [%[[N]], 3] : tensor<?xf32> into tensor<?x3xf32>
func.func @c(%x: tensor<?x3xf32>) -> tensor<?xf32> attributes {rlx.grad} {
  %y = tensor.collapse_shape %x [[0, 1]] : tensor<?x3xf32> into tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// pad -> extract_slice at the low padding; concat -> one extract_slice per
// input, and a fan-out (%a twice) accumulates.
// CHECK-LABEL: func.func @pc_grad
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<2x2xf32>, %[[DY:.+]]: tensor<5x11xf32>)
// CHECK: %[[DC:.+]] = tensor.extract_slice %[[DY]][1, 2] [2, 8] [1, 1] : tensor<5x11xf32> to tensor<2x8xf32>
// CHECK: %[[DA1:.+]] = tensor.extract_slice %[[DC]][0, 0] [2, 3] [1, 1]
// CHECK: %[[DB:.+]] = tensor.extract_slice %[[DC]][0, 3] [2, 2] [1, 1]
// CHECK: %[[DA2:.+]] = tensor.extract_slice %[[DC]][0, 5] [2, 3] [1, 1]
// CHECK: %[[DA:.+]] = linalg.generic {{.*}} ins(%[[DA2]] : tensor<2x3xf32>) outs(%[[DA1]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK: return %{{.+}}, %[[DA]], %[[DB]]
func.func @pc(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> tensor<5x11xf32> attributes {rlx.grad} {
  %c = tensor.concat dim(1) %a, %b, %a : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x8xf32>
  %z = arith.constant 0.0 : f32
  %y = tensor.pad %c low[1, 2] high[2, 1] {
    ^bb0(%i: index, %j: index):
      tensor.yield %z : f32
  } : tensor<2x8xf32> to tensor<5x11xf32>
  return %y : tensor<5x11xf32>
}

// -----

// insert_slice: the source gets the slice of dy, the destination dy with
// the slice zeroed.
// CHECK-LABEL: func.func @ins_grad
// CHECK-SAME: (%[[S:.+]]: tensor<2x3xf32>, %[[D:.+]]: tensor<4x6xf32>, %[[DY:.+]]: tensor<4x6xf32>)
// CHECK-DAG: %[[DS:.+]] = tensor.extract_slice %[[DY]][1, 2] [2, 3] [1, 1]
// CHECK-DAG: %[[DD:.+]] = tensor.insert_slice %{{.+}} into %[[DY]][1, 2] [2, 3] [1, 1]
// CHECK: return %{{.+}}, %[[DS]], %[[DD]]
func.func @ins(%s: tensor<2x3xf32>, %d: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {rlx.grad} {
  %y = tensor.insert_slice %s into %d[1, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
