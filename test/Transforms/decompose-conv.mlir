// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=conv-direct=false | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward="conv-direct=false im2col-max-elements=1200" | FileCheck %s --check-prefix=TILED
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s --check-prefix=DWISE
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --rlx-optimize-contractions="vector-bits=512 threads=2" | FileCheck %s --check-prefix=DWISEK
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=conv-phase-shuffle=0 | FileCheck %s --check-prefix=STRIDED

// dw[co, (c,a,b)] = dyT[co, (n,i,j)] x col[(n,i,j), (c,a,b)]: pad, ONE im2col
// generic whose map encodes stride/dilation, a real transpose of dy, ONE matmul.
// CHECK: #[[$IM2COL:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d0 * 3 + d4, d2 * 2 + d5, d3 * 2 + d6)>
// CHECK-LABEL: func.func @weight
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8x8xf32>, %[[DY:.+]]: tensor<2x4x4x4xf32>)
// CHECK: %[[ACC:.+]] = linalg.fill {{.*}} -> tensor<4x27xf32>
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[COL:.+]] = linalg.generic {indexing_maps = [#[[$IM2COL]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[XP]] : tensor<2x3x10x10xf32>) outs(%{{.+}} : tensor<1x2x4x4x3x3x3xf32>)
// CHECK-NOT: linalg.generic
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[DY]] : tensor<2x4x4x4xf32>) outs(%{{.+}} : tensor<4x2x4x4xf32>) permutation = [1, 0, 2, 3]
// CHECK: %[[DYT:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1, 2, 3]] : tensor<4x2x4x4xf32> into tensor<4x32xf32>
// CHECK: %[[COL2:.+]] = tensor.collapse_shape %[[COL]] {{\[}}[0, 1, 2, 3], [4, 5, 6]] : tensor<1x2x4x4x3x3x3xf32> into tensor<32x27xf32>
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[DYT]], %[[COL2]] : tensor<4x32xf32>, tensor<32x27xf32>) outs(%[[ACC]] : tensor<4x27xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: %[[DW:.+]] = tensor.expand_shape %[[MM]] {{\[}}[0], [1, 2, 3]] output_shape [4, 3, 3, 3]
// CHECK: return %[[DW]]
func.func @weight(%x: tensor<2x3x8x8xf32>, %dy: tensor<2x4x4x4xf32>) -> tensor<4x3x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %x, %dy {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x8x8xf32>, tensor<2x4x4x4xf32> -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}

// TILED-LABEL: func.func @weight
// TILED-NOT: scf.for

// -----

// Groups and a dynamic batch: im2col [G, N*Ho*Wo, K], dyT [G, Cog, N*Ho*Wo],
// one batch_matmul over the groups; dilation (1, 2) and stride (2, 1) in the map.
// CHECK: #[[$IM2COL:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d0 * 2 + d4, d2 * 2 + d5, d3 + d6 * 2)>
// CHECK-LABEL: func.func @weight_groups_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x4x7x5xf64>, %[[DY:.+]]: tensor<?x6x4x5xf64>)
// CHECK: %[[ACC:.+]] = linalg.fill {{.*}} -> tensor<2x3x12xf64>
// CHECK: %[[XP:.+]] = tensor.pad %[[X]]
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4x7x5xf64>
// CHECK: %[[COL:.+]] = linalg.generic {indexing_maps = [#[[$IM2COL]], #{{.+}}], {{.*}} ins(%[[XP]] : tensor<?x4x9x7xf64>) outs(%{{.+}} : tensor<2x?x4x5x2x3x2xf64>)
// CHECK-NOT: linalg.generic
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[DY]] : tensor<?x6x4x5xf64>) outs(%{{.+}} : tensor<6x?x4x5xf64>) permutation = [1, 0, 2, 3]
// CHECK: %[[DYT:.+]] = tensor.collapse_shape %[[T]] {{.*}} into tensor<6x?xf64>
// CHECK: %[[COL2:.+]] = tensor.collapse_shape %[[COL]] {{\[}}[0], [1, 2, 3], [4, 5, 6]] {{.*}} into tensor<2x?x12xf64>
// CHECK: %[[DYG:.+]] = tensor.expand_shape %[[DYT]] {{\[}}[0, 1], [2]] {{.*}} into tensor<2x3x?xf64>
// CHECK: %[[MM:.+]] = linalg.batch_matmul ins(%[[DYG]], %[[COL2]] : tensor<2x3x?xf64>, tensor<2x?x12xf64>) outs(%[[ACC]] : tensor<2x3x12xf64>)
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[MM]] {{\[}}[0, 1], [2]] : tensor<2x3x12xf64> into tensor<6x12xf64>
// CHECK: %[[DW:.+]] = tensor.expand_shape %[[FLAT]] {{.*}} into tensor<6x2x3x2xf64>
// CHECK: return %[[DW]]
func.func @weight_groups_dynamic(%x: tensor<?x4x7x5xf64>, %dy: tensor<?x6x4x5xf64>) -> tensor<6x2x3x2xf64> {
  %dw = rlx.conv2d_backward_weight %x, %dy {stride = array<i64: 2, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 2>, groups = 2 : i64} : tensor<?x4x7x5xf64>, tensor<?x6x4x5xf64> -> tensor<6x2x3x2xf64>
  return %dw : tensor<6x2x3x2xf64>
}

// With im2col-max-elements=1200 (and a dynamic batch) the batch is tiled: the
// loop accumulates into the [G, Cog, K] result; the tile is min(T, N - n0).
// TILED-LABEL: func.func @weight_groups_dynamic
// TILED: %[[ACC:.+]] = linalg.fill {{.*}} -> tensor<2x3x12xf64>
// TILED: %[[N:.+]] = tensor.dim
// TILED: %[[R:.+]] = scf.for %[[N0:.+]] = %{{.+}} to %[[N]] step %[[T:.+]] iter_args(%[[A:.+]] = %[[ACC]]) -> (tensor<2x3x12xf64>)
// TILED: %[[LEFT:.+]] = arith.subi %[[N]], %[[N0]]
// TILED: %[[SZ:.+]] = arith.minsi %[[LEFT]], %[[T]]
// TILED: tensor.extract_slice %{{.+}}[%[[N0]], 0, 0, 0] [%[[SZ]], 4, 7, 5]
// TILED: tensor.extract_slice %{{.+}}[%[[N0]], 0, 0, 0] [%[[SZ]], 6, 4, 5]
// TILED: linalg.generic
// TILED: linalg.transpose
// TILED: %[[MM:.+]] = linalg.batch_matmul {{.*}} outs(%[[A]] : tensor<2x3x12xf64>)
// TILED: scf.yield %[[MM]]
// TILED: tensor.collapse_shape %[[R]]

// -----

// Static batch 6 with 288 im2col elements per sample and a 1200 cap: at most
// 4 samples fit; the largest divisor of 6 that does, 3, keeps tiles static.
// TILED-LABEL: func.func @weight_tiled_static
// TILED-DAG: %[[C3:.+]] = arith.constant 3 : index
// TILED-DAG: %[[C6:.+]] = arith.constant 6 : index
// TILED: scf.for %[[N0:.+]] = %{{.+}} to %[[C6]] step %[[C3]] iter_args(%[[A:.+]] = %{{.+}}) -> (tensor<6x18xf32>)
// TILED: tensor.extract_slice %{{.+}}[%[[N0]], 0, 0, 0] [3, 2, 8, 8] [1, 1, 1, 1] : tensor<6x2x8x8xf32> to tensor<3x2x8x8xf32>
// TILED: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x3x4x4x2x3x3xf32>)
// TILED: linalg.matmul {{.*}} outs(%[[A]] : tensor<6x18xf32>)
// TILED: scf.yield
// CHECK-LABEL: func.func @weight_tiled_static
// CHECK-NOT: scf.for
func.func @weight_tiled_static(%x: tensor<6x2x8x8xf32>, %dy: tensor<6x6x4x4xf32>) -> tensor<6x2x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %x, %dy {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<6x2x8x8xf32>, tensor<6x6x4x4xf32> -> tensor<6x2x3x3xf32>
  return %dw : tensor<6x2x3x3xf32>
}

// -----

// dx = conv(dyz, flip(w)^T): dy dilated by the stride and padded by
// d(k-1) - p = 1 (plus 1 extra row/col: H = 8 > the minimal 7) in one strided
// insert_slice; the kernel flipped by a generic with a reversed map; a
// stride-1 conv_2d_nchw_fchw. Dynamic batch.
// CHECK: #[[$FLIP:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0 * 4 + d2, d1, -d3 + 2, -d4 + 2)>
// CHECK-LABEL: func.func @input_stride
// CHECK-SAME: (%[[DY:.+]]: tensor<?x4x4x4xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[DY]]
// CHECK: %[[Z:.+]] = linalg.fill {{.*}} -> tensor<?x4x10x10xf32>
// CHECK: %[[DYZ:.+]] = tensor.insert_slice %[[DY]] into %[[Z]][0, 0, 1, 1] [%[[N]], 4, 4, 4] [1, 1, 2, 2]
// CHECK: %[[WF:.+]] = linalg.generic {indexing_maps = [#[[$FLIP]], #{{.+}}], {{.*}} ins(%[[W]] : tensor<4x3x3x3xf32>) outs(%{{.+}} : tensor<1x3x4x3x3xf32>)
// CHECK: %[[WF2:.+]] = tensor.collapse_shape %[[WF]] {{.*}} into tensor<3x4x3x3xf32>
// CHECK: %[[DX:.+]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[DYZ]], %[[WF2]] : tensor<?x4x10x10xf32>, tensor<3x4x3x3xf32>) outs(%{{.+}} : tensor<?x3x8x8xf32>)
// CHECK: return %[[DX]]
func.func @input_stride(%dy: tensor<?x4x4x4xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x3x8x8xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x4x4x4xf32>, tensor<4x3x3x3xf32> -> tensor<?x3x8x8xf32>
  return %dx : tensor<?x3x8x8xf32>
}

// -----

// Groups use the grouped convolution (no per-group ops); padding 2 > d(k-1) = 1
// along h crops dy row 0 (it only saw padding) with an extract_slice.
// CHECK: #[[$FLIP:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0 * 3 + d2, d1, -d3 + 1, -d4 + 1)>
// CHECK-LABEL: func.func @input_groups_crop
// CHECK-SAME: (%[[DY:.+]]: tensor<2x6x4x5xf32>, %[[W:.+]]: tensor<6x2x2x2xf32>)
// CHECK: %[[Z:.+]] = linalg.fill {{.*}} -> tensor<2x6x6x7xf32>
// CHECK: %[[CROP:.+]] = tensor.extract_slice %[[DY]][0, 0, 1, 0] [2, 6, 3, 5] [1, 1, 1, 1]
// CHECK: %[[DYZ:.+]] = tensor.insert_slice %[[CROP]] into %[[Z]][0, 0, 1, 1] [2, 6, 3, 5] [1, 1, 2, 1]
// CHECK: %[[WF:.+]] = linalg.generic {indexing_maps = [#[[$FLIP]], #{{.+}}], {{.*}} ins(%[[W]] : tensor<6x2x2x2xf32>) outs(%{{.+}} : tensor<2x2x3x2x2xf32>)
// CHECK: %[[DYG:.+]] = tensor.expand_shape %[[DYZ]] {{\[}}[0], [1, 2], [3], [4]] {{.*}} into tensor<2x2x3x6x7xf32>
// CHECK: %[[CONV:.+]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[DYG]], %[[WF]] : tensor<2x2x3x6x7xf32>, tensor<2x2x3x2x2xf32>) outs(%{{.+}} : tensor<2x2x2x5x6xf32>)
// CHECK: %[[DX:.+]] = tensor.collapse_shape %[[CONV]] {{\[}}[0], [1, 2], [3], [4]] : tensor<2x2x2x5x6xf32> into tensor<2x4x5x6xf32>
// CHECK: return %[[DX]]
func.func @input_groups_crop(%dy: tensor<2x6x4x5xf32>, %w: tensor<6x2x2x2xf32>) -> tensor<2x4x5x6xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 1>, padding = array<i64: 2, 0>, groups = 2 : i64} : tensor<2x6x4x5xf32>, tensor<6x2x2x2xf32> -> tensor<2x4x5x6xf32>
  return %dx : tensor<2x4x5x6xf32>
}

// -----

// Dilation 2 reaches the convolution; 3x3 kernel, dilation 2, padding 2:
// dy is padded by d(k-1) - p = 2 on each side.
// CHECK-LABEL: func.func @input_dilation
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 2, 2] [1, 2, 5, 5] [1, 1, 1, 1] : tensor<1x2x5x5xf32> into tensor<1x2x9x9xf32>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} {{.*}} outs(%{{.+}} : tensor<1x3x5x5xf32>)
func.func @input_dilation(%dy: tensor<1x2x5x5xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : tensor<1x2x5x5xf32>, tensor<2x3x3x3xf32> -> tensor<1x3x5x5xf32>
  return %dx : tensor<1x3x5x5xf32>
}

// -----

// x has a static batch and dy a dynamic one: dy is cast to the static batch so
// the transpose and the matmul agree.
// CHECK-LABEL: func.func @weight_mixed_batch
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8x8xf32>, %[[DY:.+]]: tensor<?x4x8x8xf32>)
// CHECK: %[[DYC:.+]] = tensor.cast %[[DY]] : tensor<?x4x8x8xf32> to tensor<2x4x8x8xf32>
// CHECK: linalg.transpose ins(%[[DYC]] : tensor<2x4x8x8xf32>) outs(%{{.+}} : tensor<4x2x8x8xf32>)
// CHECK: linalg.matmul
func.func @weight_mixed_batch(%x: tensor<2x3x8x8xf32>, %dy: tensor<?x4x8x8xf32>) -> tensor<4x3x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<2x3x8x8xf32>, tensor<?x4x8x8xf32> -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}

// -----

// Zero input channels: the per-sample im2col buffer is empty, so even with a
// cap and a dynamic batch nothing is tiled (this divided by zero before).
// TILED-LABEL: func.func @weight_no_input_channels
// TILED-NOT: scf.for
// TILED: linalg.matmul {{.*}} -> tensor<3x0xf32>
// TILED: tensor.expand_shape {{.*}} into tensor<3x0x3x3xf32>
// CHECK-LABEL: func.func @weight_no_input_channels
// CHECK: linalg.matmul
func.func @weight_no_input_channels(%x: tensor<?x0x5x5xf32>, %dy: tensor<?x3x3x3xf32>) -> tensor<3x0x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %x, %dy : tensor<?x0x5x5xf32>, tensor<?x3x3x3xf32> -> tensor<3x0x3x3xf32>
  return %dw : tensor<3x0x3x3xf32>
}

// -----

// db = sum of dy over N, H, W: one reduction generic, every dim dynamic.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CO:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @backward_bias
// CHECK-SAME: (%[[DY:.+]]: tensor<?x?x?x?xf32>)
// CHECK: %[[Z:.+]] = linalg.fill
// CHECK: %[[DB:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[CO]]], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%[[DY]] : tensor<?x?x?x?xf32>) outs(%[[Z]] : tensor<?xf32>)
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return %[[DB]]
func.func @backward_bias(%dy: tensor<?x?x?x?xf32>) -> tensor<?xf32> {
  %db = rlx.conv2d_backward_bias %dy : tensor<?x?x?x?xf32> -> tensor<?xf32>
  return %db : tensor<?xf32>
}

// -----

// Any operand dim dynamic, input gradient: one generic over
// (n, g, c, h, v, o, a, b) on the group-split w, reading dy at
// i = (h + p - a*d) / s when exact and in [0, Ho) (clamped reads, 0
// otherwise). dx's W (stride 1) is Wo + d(kW - 1) - 2p from tensor.dim; its
// H is static (stride 2).
// CHECK-DAG: #[[WMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d2, d6, d7)>
// CHECK-DAG: #[[DXMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @input_dynamic
// CHECK-SAME: (%[[DY:.+]]: tensor<?x?x?x?xf32>, %[[W:.+]]: tensor<?x?x?x?xf32>)
// CHECK: %[[WG:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] {{.*}} into tensor<3x?x?x?x?xf32>
// CHECK: %[[DX:.+]] = linalg.generic {indexing_maps = [#[[WMAP]], #[[DXMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[WG]] : tensor<3x?x?x?x?xf32>) outs(%{{.+}} : tensor<?x3x?x9x?xf32>)
// CHECK: arith.remsi
// CHECK: tensor.extract %[[DY]]
// CHECK: arith.select
// CHECK: tensor.collapse_shape %[[DX]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<?x3x?x9x?xf32> into tensor<?x?x9x?xf32>
func.func @input_dynamic(%dy: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>) -> tensor<?x?x9x?xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 3 : i64} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x9x?xf32>
  return %dx : tensor<?x?x9x?xf32>
}

// -----

// Any operand dim dynamic, weight gradient: one contraction over
// (g, o, c, a, b, n, i, j) on the group-split views of pad(x) and dy (the
// implicit GEMM without a transpose); the dynamic kernel dims (stride and
// dilation 1) are Hp - Ho + 1.
// CHECK-DAG: #[[XMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d2, d3 + d6, d4 + d7)>
// CHECK-DAG: #[[DYMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d1, d6, d7)>
// CHECK-DAG: #[[DWMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @weight_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf64>, %[[DY:.+]]: tensor<?x?x?x?xf64>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[XG:.+]] = tensor.expand_shape %[[XP]] {{.*}} into tensor<?x2x?x?x?xf64>
// CHECK: %[[DYG:.+]] = tensor.expand_shape %[[DY]] {{.*}} into tensor<?x2x?x?x?xf64>
// CHECK: %[[DW:.+]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[DYMAP]], #[[DWMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[XG]], %[[DYG]] :
// CHECK: tensor.collapse_shape %[[DW]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<2x?x?x?x?xf64> into tensor<?x?x?x?xf64>
func.func @weight_dynamic(%x: tensor<?x?x?x?xf64>, %dy: tensor<?x?x?x?xf64>) -> tensor<?x?x?x?xf64> {
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64> -> tensor<?x?x?x?xf64>
  return %dw : tensor<?x?x?x?xf64>
}

// -----

// Depthwise (one output channel per group), stride 1 along W: with
// conv-direct (the default) per-column partial
// sums part[g, c, a, b, j] over (n, i), then their sum over j. The
// micro-kernel's rows are the 3 taps b, both operands loaded as vectors
// along j (20 columns: pieces [0, 16) and [4, 20)), no broadcast.
// DWISE-LABEL: func.func @weight_depthwise
// DWISE: tensor.pad
// DWISE: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// DWISE-SAME: tensor<?x4x8x22xf32>, tensor<?x4x6x20xf32>) outs(%{{.+}} : tensor<4x1x3x3x20xf32>)
// DWISE: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// DWISE-SAME: outs(%{{.+}} : tensor<4x1x3x3xf32>)
// DWISEK-LABEL: func.func @weight_depthwise
// DWISEK: scf.forall
// DWISEK: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// DWISEK: vector.transfer_read {{.*}} : tensor<?x1x6x20xf32>, vector<16xf32>
// DWISEK-NOT: vector.broadcast
// DWISEK: vector.transfer_read {{.*}} : tensor<?x1x6x22xf32>, vector<16xf32>
// DWISEK: vector.fma
// DWISEK-NOT: vector.broadcast
// DWISEK: scf.yield
// With conv-direct=false it is im2col + batch_matmul over the groups.
func.func @weight_depthwise(%x: tensor<?x4x6x20xf32>, %dy: tensor<?x4x6x20xf32>) -> tensor<4x1x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>, groups = 4 : i64} : tensor<?x4x6x20xf32>, tensor<?x4x6x20xf32> -> tensor<4x1x3x3xf32>
  return %dw : tensor<4x1x3x3xf32>
}

// -----

// Stride 2 with conv-direct (the default): each stride phase (rh, rw) is a
// contraction over only its taps, written unit-stride into the phase-major
// buffer P[n, g, c, rh, rw, u, v]; one transpose (a pixel shuffle)
// interleaves the phases into dx. P is not zeroed as a whole: each phase
// zeroes its own slice (a fill that the contraction's blocks take in). With
// conv-phase-shuffle=0 each phase is a strided insert_slice into dx.
// DWISE-LABEL: func.func @input_stride2_phases
// DWISE-NOT: linalg.fill {{.*}} -> tensor<?x1x2x2x2x3x4xf32>
// DWISE: %[[P:.+]] = tensor.empty(%{{.+}}) : tensor<?x1x2x2x2x3x4xf32>
// DWISE: %[[S00:.+]] = tensor.extract_slice %[[P]][0, 0, 0, 0, 0, 0, 0] [%{{.+}}, 1, 2, 1, 1, 3, 4] [1, 1, 1, 1, 1, 1, 1] : tensor<?x1x2x2x2x3x4xf32> to tensor<?x1x2x3x4xf32>
// DWISE: %[[Z00:.+]] = linalg.fill {{.*}} outs(%[[S00]] : tensor<?x1x2x3x4xf32>)
// DWISE: %[[C00:.+]] = linalg.generic {{.*}} outs(%[[Z00]] : tensor<?x1x2x3x4xf32>)
// DWISE: %[[P00:.+]] = tensor.insert_slice %[[C00]] into %[[P]][0, 0, 0, 0, 0, 0, 0]
// DWISE: tensor.insert_slice %{{.+}} into %[[P00]][0, 0, 0, 0, 1, 0, 0]
// DWISE: tensor.insert_slice {{.*}}[0, 0, 0, 1, 0, 0, 0]
// DWISE: %[[P11:.+]] = tensor.insert_slice {{.*}}[0, 0, 0, 1, 1, 0, 0]
// DWISE: %[[T:.+]] = linalg.transpose ins(%[[P11]] : tensor<?x1x2x2x2x3x4xf32>) outs(%{{.+}} : tensor<?x1x2x3x2x4x2xf32>) permutation = [0, 1, 2, 5, 3, 6, 4]
// DWISE: tensor.collapse_shape %[[T]] {{\[\[}}0], [1, 2], [3, 4], [5, 6]] : tensor<?x1x2x3x2x4x2xf32> into tensor<?x2x6x8xf32>
// STRIDED-LABEL: func.func @input_stride2_phases
// STRIDED-NOT: linalg.transpose
// STRIDED: tensor.insert_slice {{.*}} [1, 1, 2, 2] : tensor<?x2x3x4xf32> into tensor<?x2x6x8xf32>
// STRIDED-NOT: linalg.transpose
func.func @input_stride2_phases(%dy: tensor<?x4x3x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x2x6x8xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x4x3x4xf32>, tensor<4x2x3x3xf32> -> tensor<?x2x6x8xf32>
  return %dx : tensor<?x2x6x8xf32>
}
