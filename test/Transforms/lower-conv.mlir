// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg=forward-conv-direct=false | FileCheck %s

// y = conv_2d_nchw_fchw(pad(x, p), w) with the stride and dilation as attributes.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x7xf32>, %[[W:.+]]: tensor<4x3x3x2xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor<?x3x8x7xf32> to tensor<?x3x10x9xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[XP]]
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x4x4x4xf32>
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?x4x4x4xf32>)
// CHECK: %[[Y:.+]] = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%[[XP]], %[[W]] : tensor<?x3x10x9xf32>, tensor<4x3x3x2xf32>) outs(%[[Z]] : tensor<?x4x4x4xf32>)
// CHECK-NOT: rlx.
// CHECK: return %[[Y]]
func.func @conv(%x: tensor<?x3x8x7xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<?x4x4x4xf32> {
  %y = rlx.conv2d %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 2>} : tensor<?x3x8x7xf32>, tensor<4x3x3x2xf32> -> tensor<?x4x4x4xf32>
  return %y : tensor<?x4x4x4xf32>
}

// -----

// groups > 1: x -> [N, G, Ci/G, H, W], w -> [G, Co/G, Ci/G, kH, kW], one
// conv_2d_ngchw_gfchw, and the result collapsed back to [N, Co, Ho, Wo].
// No padding: no tensor.pad.
// CHECK-LABEL: func.func @conv_groups
// CHECK-SAME: (%[[X:.+]]: tensor<2x4x6x6xf64>, %[[W:.+]]: tensor<6x2x3x3xf64>)
// CHECK-NOT: tensor.pad
// CHECK: %[[XG:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 6, 6]
// CHECK: %[[WG:.+]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
// CHECK: %[[Z:.+]] = linalg.fill {{.*}} -> tensor<2x2x3x4x4xf64>
// CHECK: %[[YG:.+]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[XG]], %[[WG]] : tensor<2x2x2x6x6xf64>, tensor<2x3x2x3x3xf64>) outs(%[[Z]] : tensor<2x2x3x4x4xf64>)
// CHECK: %[[Y:.+]] = tensor.collapse_shape %[[YG]] {{\[}}[0], [1, 2], [3], [4]] : tensor<2x2x3x4x4xf64> into tensor<2x6x4x4xf64>
// CHECK: return %[[Y]]
func.func @conv_groups(%x: tensor<2x4x6x6xf64>, %w: tensor<6x2x3x3xf64>) -> tensor<2x6x4x4xf64> {
  %y = rlx.conv2d %x, %w {groups = 2 : i64} : tensor<2x4x6x6xf64>, tensor<6x2x3x3xf64> -> tensor<2x6x4x4xf64>
  return %y : tensor<2x6x4x4xf64>
}

// -----

// Any dim dynamic (channels, spatial, kernel): pad, the group-split views
// [N, G, Cig, Hp, Wp] and [G, Cog, Cig, kH, kW] (Cig, Cog read with
// tensor.dim), and one contraction over (n, g, f, i, j, c, a, b) whose maps
// carry the stride and dilation; Ho and Wo from tensor.dim.
// CHECK-DAG: #[[FMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-DAG: #[[XMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 2 + d6, d4 + d7 * 2)>
// CHECK-DAG: #[[YMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf32>, %[[W:.+]]: tensor<?x?x?x?xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[XG:.+]] = tensor.expand_shape %[[XP]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [%{{.+}}, 2, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<?x?x?x?xf32> into tensor<?x2x?x?x?xf32>
// CHECK: %[[WG:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] {{.*}} into tensor<2x?x?x?x?xf32>
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[FMAP]], #[[XMAP]], #[[YMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[WG]], %[[XG]] :
// CHECK: tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<?x2x?x?x?xf32> into tensor<?x?x?x?xf32>
func.func @conv_dynamic(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %y = rlx.conv2d %x, %w {stride = array<i64: 2, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 2>, groups = 2 : i64} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}
