// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s

// layer norm dx = r*(g - mean(g) - xh*mean(g*xh)), g = dy*gamma, xh = (x-m)*r:
// s1 = sum(x); ONE reduction with three outputs sum((x-m)^2), sum(g),
// sum(g*(x-m)); one per-row generic (mean, r, mean(g), mean(g*xh)); one
// elementwise generic for dx. Dynamic batch dim.
// CHECK-LABEL: func.func @layer_norm_backward_input
// CHECK-SAME: (%[[X:.+]]: tensor<?x16xf32>, %[[GAMMA:.+]]: tensor<16xf32>, %[[DY:.+]]: tensor<?x16xf32>)
// CHECK-DAG: %[[EPS:.+]] = arith.constant 9.99999974E-6 : f32
// CHECK-DAG: %[[INV:.+]] = arith.constant 6.250000e-02 : f32
// CHECK: %[[S1:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x16xf32>)
// CHECK: %[[SUMS:.+]]:3 = linalg.generic {{{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[GAMMA]], %[[DY]], %[[S1]] : {{.*}}) outs({{.*}} : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
// CHECK:   %[[MEAN:.+]] = arith.mulf %{{.*}}, %[[INV]]
// CHECK:   %[[C:.+]] = arith.subf %{{.*}}, %[[MEAN]]
// CHECK:   %[[G:.+]] = arith.mulf
// CHECK:   %[[C2:.+]] = arith.mulf %[[C]], %[[C]]
// CHECK:   %[[GC:.+]] = arith.mulf %[[G]], %[[C]]
// CHECK:   %[[A0:.+]] = arith.addf %{{.*}}, %[[C2]]
// CHECK:   %[[A1:.+]] = arith.addf %{{.*}}, %[[G]]
// CHECK:   %[[A2:.+]] = arith.addf %{{.*}}, %[[GC]]
// CHECK:   linalg.yield %[[A0]], %[[A1]], %[[A2]]
// CHECK: %[[ROWS:.+]]:4 = linalg.generic {{{.*}}iterator_types = ["parallel"]} ins(%[[S1]], %[[SUMS]]#0, %[[SUMS]]#1, %[[SUMS]]#2 :
// CHECK:   arith.addf %{{.*}}, %[[EPS]]
// CHECK:   math.rsqrt
// CHECK: %[[DX:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[GAMMA]], %[[DY]], %[[ROWS]]#0, %[[ROWS]]#1, %[[ROWS]]#2, %[[ROWS]]#3 : {{.*}}) outs(%{{.*}} : tensor<?x16xf32>)
// CHECK-NOT: linalg.generic
// CHECK-NOT: rlx.
// CHECK: return %[[DX]]
func.func @layer_norm_backward_input(%x: tensor<?x16xf32>, %gamma: tensor<16xf32>, %dy: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %dx = rlx.layer_norm_backward_input %x, %gamma, %dy {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return %dx : tensor<?x16xf32>
}

// -----

// Rank 3, every dim dynamic: 1/D from tensor.dim; statistics over [B, S].
// CHECK-LABEL: func.func @layer_norm_backward_input_dynamic
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[D:.+]] = tensor.dim %{{.*}}, %[[C2]] : tensor<?x?x?xf64>
// CHECK: %[[DI:.+]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[DF:.+]] = arith.sitofp %[[DI]] : i64 to f64
// CHECK: arith.divf %{{.*}}, %[[DF]] : f64
// CHECK: linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins({{.*}}) outs({{.*}} : tensor<?x?xf64>)
// CHECK: linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins({{.*}}) outs({{.*}} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>)
// CHECK: linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins({{.*}}) outs({{.*}} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>)
// CHECK: linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins({{.*}}) outs({{.*}} : tensor<?x?x?xf64>)
func.func @layer_norm_backward_input_dynamic(%x: tensor<?x?x?xf64>, %gamma: tensor<?xf64>, %dy: tensor<?x?x?xf64>) -> tensor<?x?x?xf64> {
  %dx = rlx.layer_norm_backward_input %x, %gamma, %dy {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<?x?x?xf64>, tensor<?xf64>, tensor<?x?x?xf64> -> tensor<?x?x?xf64>
  return %dx : tensor<?x?x?xf64>
}

// -----

// dgamma[d] = sum over rows of dy*(x-mean)*r: statistics (sum, centred sum of
// squares, per-row mean/r), then one reduction over the leading dims.
// CHECK-LABEL: func.func @layer_norm_backward_gamma
// CHECK-SAME: (%[[X:.+]]: tensor<2x?x8xf32>, %[[DY:.+]]: tensor<2x?x8xf32>)
// CHECK: %[[S1:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] :
// CHECK: %[[S2:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[S1]] :
// CHECK: %[[ST:.+]]:2 = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[S1]], %[[S2]] :
// CHECK: math.rsqrt
// CHECK: %[[DG:.+]] = linalg.generic {{{.*}}iterator_types = ["reduction", "reduction", "parallel"]} ins(%[[X]], %[[DY]], %[[ST]]#0, %[[ST]]#1 : {{.*}}) outs(%{{.*}} : tensor<8xf32>)
// CHECK: return %[[DG]]
func.func @layer_norm_backward_gamma(%x: tensor<2x?x8xf32>, %dy: tensor<2x?x8xf32>) -> tensor<8xf32> {
  %dg = rlx.layer_norm_backward_gamma %x, %dy {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x?x8xf32>, tensor<2x?x8xf32> -> tensor<8xf32>
  return %dg : tensor<8xf32>
}

// -----

// dbeta[d] = sum over rows of dy: one zero-filled reduction.
// CHECK-LABEL: func.func @layer_norm_backward_beta
// CHECK-SAME: (%[[DY:.+]]: tensor<?x8xf32>)
// CHECK: %[[Z:.+]] = linalg.fill
// CHECK: %[[DB:.+]] = linalg.generic {{{.*}}iterator_types = ["reduction", "parallel"]} ins(%[[DY]] : tensor<?x8xf32>) outs(%[[Z]] : tensor<8xf32>)
// CHECK: return %[[DB]]
func.func @layer_norm_backward_beta(%dy: tensor<?x8xf32>) -> tensor<8xf32> {
  %db = rlx.layer_norm_backward_beta %dy {axis = -1 : i64} : tensor<?x8xf32> -> tensor<8xf32>
  return %db : tensor<8xf32>
}

// -----

// Rank 1: the statistics are rank-0 tensors, the parameter sums have no
// reduction dim.
// CHECK-LABEL: func.func @layer_norm_rank1
// CHECK: linalg.generic {{{.*}}iterator_types = ["reduction"]} ins({{.*}}) outs({{.*}} : tensor<f64>)
// CHECK: linalg.generic {{{.*}}iterator_types = ["reduction"]} ins({{.*}}) outs({{.*}} : tensor<f64>, tensor<f64>, tensor<f64>)
// CHECK: linalg.generic {{{.*}}iterator_types = []}
// CHECK: linalg.generic {{{.*}}iterator_types = ["parallel"]} ins({{.*}}) outs({{.*}} : tensor<7xf64>)
// CHECK: linalg.generic {{{.*}}iterator_types = ["parallel"]} ins({{.*}}) outs({{.*}} : tensor<7xf64>)
func.func @layer_norm_rank1(%x: tensor<7xf64>, %g: tensor<7xf64>) -> (tensor<7xf64>, tensor<7xf64>) {
  %dx = rlx.layer_norm_backward_input %x, %g, %x {axis = 0 : i64, eps = 1.0e-5 : f32} : tensor<7xf64>, tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %db = rlx.layer_norm_backward_beta %x {axis = 0 : i64} : tensor<7xf64> -> tensor<7xf64>
  return %dx, %db : tensor<7xf64>, tensor<7xf64>
}

// -----

// rms dx = r*g - x*c, r = rsqrt(mean(x^2)+eps), c = r^3*mean(g*x): sum(x^2)
// and sum(g*x) in ONE two-output reduction, a per-row generic, one
// elementwise generic.
// CHECK-LABEL: func.func @rms_norm_backward_input
// CHECK-SAME: (%[[X:.+]]: tensor<?x16xf32>, %[[GAMMA:.+]]: tensor<16xf32>, %[[BETA:.+]]: tensor<16xf32>, %[[DY:.+]]: tensor<?x16xf32>)
// CHECK: %[[SUMS:.+]]:2 = linalg.generic {{{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[GAMMA]], %[[DY]] : {{.*}}) outs({{.*}} : tensor<?xf32>, tensor<?xf32>)
// CHECK:   %[[G:.+]] = arith.mulf
// CHECK:   %[[XX:.+]] = arith.mulf
// CHECK:   %[[GX:.+]] = arith.mulf %[[G]]
// CHECK:   %[[A0:.+]] = arith.addf %{{.*}}, %[[XX]]
// CHECK:   %[[A1:.+]] = arith.addf %{{.*}}, %[[GX]]
// CHECK:   linalg.yield %[[A0]], %[[A1]]
// CHECK: %[[ROWS:.+]]:2 = linalg.generic {{{.*}}iterator_types = ["parallel"]} ins(%[[SUMS]]#0, %[[SUMS]]#1 :
// CHECK:   math.rsqrt
// CHECK: %[[DX:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[GAMMA]], %[[DY]], %[[ROWS]]#0, %[[ROWS]]#1 :
// CHECK-NOT: linalg.generic
// CHECK: return %[[DX]]
func.func @rms_norm_backward_input(%x: tensor<?x16xf32>, %gamma: tensor<16xf32>, %beta: tensor<16xf32>, %dy: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %dx = rlx.rms_norm_backward_input %x, %gamma, %beta, %dy {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return %dx : tensor<?x16xf32>
}

// -----

// rms dgamma = sum over rows of dy*x*r; dbeta = sum over rows of dy.
// CHECK-LABEL: func.func @rms_norm_backward_params
// CHECK-SAME: (%[[X:.+]]: tensor<?x4x16xf32>, %{{.*}}: tensor<16xf32>, %{{.*}}: tensor<16xf32>, %[[DY:.+]]: tensor<?x4x16xf32>)
// CHECK: %[[SS:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] :
// CHECK: %[[R:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[SS]] :
// CHECK: math.rsqrt
// CHECK: %[[DG:.+]] = linalg.generic {{{.*}}iterator_types = ["reduction", "reduction", "parallel"]} ins(%[[X]], %[[DY]], %[[R]] : {{.*}}) outs(%{{.*}} : tensor<16xf32>)
// CHECK: %[[DB:.+]] = linalg.generic {{{.*}}iterator_types = ["reduction", "reduction", "parallel"]} ins(%[[DY]] : {{.*}}) outs(%{{.*}} : tensor<16xf32>)
// CHECK: return %[[DG]], %[[DB]]
func.func @rms_norm_backward_params(%x: tensor<?x4x16xf32>, %gamma: tensor<16xf32>, %beta: tensor<16xf32>, %dy: tensor<?x4x16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %dg = rlx.rms_norm_backward_gamma %x, %gamma, %beta, %dy {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<?x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<?x4x16xf32> -> tensor<16xf32>
  %db = rlx.rms_norm_backward_beta %x, %gamma, %beta, %dy {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<?x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<?x4x16xf32> -> tensor<16xf32>
  return %dg, %db : tensor<16xf32>, tensor<16xf32>
}

// -----

// group norm dx: the layer-norm gradient on x viewed as [N, G, C/G, H*W]
// (statistics over dims 2-3, gamma viewed as [G, C/G]), reshaped back.
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NG:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[GC:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @group_norm_backward_input
// CHECK-SAME: (%[[X:.+]]: tensor<?x6x5x3xf32>, %[[GAMMA:.+]]: tensor<6xf32>, %{{.*}}: tensor<6xf32>, %[[DY:.+]]: tensor<?x6x5x3xf32>)
// CHECK-DAG: %[[INV:.+]] = arith.constant 0.0333333351 : f32
// CHECK: %[[X3:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : tensor<?x6x5x3xf32> into tensor<?x6x15xf32>
// CHECK: %[[X4:.+]] = tensor.expand_shape %[[X3]] {{\[\[}}0], [1, 2], [3]] output_shape [%{{.*}}, 3, 2, 15] : tensor<?x6x15xf32> into tensor<?x3x2x15xf32>
// CHECK: %[[DY3:.+]] = tensor.collapse_shape %[[DY]] {{\[\[}}0], [1], [2, 3]]
// CHECK: %[[DY4:.+]] = tensor.expand_shape %[[DY3]] {{\[\[}}0], [1, 2], [3]]
// CHECK: %[[G2:.+]] = tensor.expand_shape %[[GAMMA]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: %[[S1:.+]] = linalg.generic {indexing_maps = [#[[ID4]], #[[NG]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X4]] :
// CHECK: %[[SUMS:.+]]:3 = linalg.generic {indexing_maps = [#[[ID4]], #[[GC]], #[[ID4]], #[[NG]], #[[NG]], #[[NG]], #[[NG]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X4]], %[[G2]], %[[DY4]], %[[S1]] :
// CHECK: %[[ROWS:.+]]:4 = linalg.generic {{.*}} ins(%[[S1]], %[[SUMS]]#0, %[[SUMS]]#1, %[[SUMS]]#2 :
// CHECK: %[[DX4:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X4]], %[[G2]], %[[DY4]], %[[ROWS]]#0, %[[ROWS]]#1, %[[ROWS]]#2, %[[ROWS]]#3 :
// CHECK: %[[DX3:.+]] = tensor.collapse_shape %[[DX4]] {{\[\[}}0], [1, 2], [3]] : tensor<?x3x2x15xf32> into tensor<?x6x15xf32>
// CHECK: %[[DX:.+]] = tensor.expand_shape %[[DX3]] {{\[\[}}0], [1], [2, 3]] output_shape [%{{.*}}, 6, 5, 3] : tensor<?x6x15xf32> into tensor<?x6x5x3xf32>
// CHECK: return %[[DX]]
func.func @group_norm_backward_input(%x: tensor<?x6x5x3xf32>, %gamma: tensor<6xf32>, %beta: tensor<6xf32>, %dy: tensor<?x6x5x3xf32>) -> tensor<?x6x5x3xf32> {
  %dx = rlx.group_norm_backward_input %x, %gamma, %beta, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<?x6x5x3xf32> -> tensor<?x6x5x3xf32>
  return %dx : tensor<?x6x5x3xf32>
}

// -----

// group norm dgamma[c] = sum over n, h, w of dy*xh: a [G, C/G] reduction over
// dims (0, 3) of the [N, G, C/G, H*W] view, collapsed to [C]; dbeta[c] =
// sum over n, h, w of dy on the NCHW tensor directly.
// CHECK-LABEL: func.func @group_norm_backward_params
// CHECK-SAME: (%[[X:.+]]: tensor<?x6x5x3xf32>, %[[DY:.+]]: tensor<?x6x5x3xf32>)
// CHECK: %[[X3:.+]] = tensor.collapse_shape %[[X]]
// CHECK: %[[X4:.+]] = tensor.expand_shape %[[X3]]
// CHECK: %[[DY3:.+]] = tensor.collapse_shape %[[DY]]
// CHECK: %[[DY4:.+]] = tensor.expand_shape %[[DY3]]
// CHECK: %[[ST:.+]]:2 = linalg.generic
// CHECK: %[[DG2:.+]] = linalg.generic {{{.*}}iterator_types = ["reduction", "parallel", "parallel", "reduction"]} ins(%[[X4]], %[[DY4]], %[[ST]]#0, %[[ST]]#1 : {{.*}}) outs(%{{.*}} : tensor<3x2xf32>)
func.func @group_norm_backward_params(%x: tensor<?x6x5x3xf32>, %dy: tensor<?x6x5x3xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %dg = rlx.group_norm_backward_gamma %x, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32> -> tensor<6xf32>
  %db = rlx.group_norm_backward_beta %x, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<?x6x5x3xf32> -> tensor<6xf32>
  return %dg, %db : tensor<6xf32>, tensor<6xf32>
}

// -----

// A dynamic channel count: C/G = C floordiv G at run time. Dynamic H and W
// keep the [N, G, C/G, H, W] view (merged, MLIR 22's expand-strided-metadata
// crashed on it with a dynamic C).
// CHECK-LABEL: func.func @group_norm_dynamic_channels
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[C:.+]] = tensor.dim %{{.*}}, %[[C1]] : tensor<?x?x?x?xf64>
// CHECK: %[[CG:.+]] = arith.divui %[[C]], %[[C4]] : index
// CHECK: tensor.expand_shape %{{.*}} output_shape [%{{.*}}, 4, %[[CG]], %{{.*}}, %{{.*}}] : tensor<?x?x?x?xf64> into tensor<?x4x?x?x?xf64>
// CHECK: tensor.collapse_shape %{{.*}} : tensor<?x4x?x?x?xf64> into tensor<?x?x?x?xf64>
func.func @group_norm_dynamic_channels(%x: tensor<?x?x?x?xf64>, %gamma: tensor<?xf64>) -> tensor<?x?x?x?xf64> {
  %dx = rlx.group_norm_backward_input %x, %gamma, %gamma, %x {num_groups = 4 : i64, eps = 1.0e-5 : f32} : tensor<?x?x?x?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?x?x?x?xf64> -> tensor<?x?x?x?xf64>
  return %dx : tensor<?x?x?x?xf64>
}
