// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// layer_norm: s1 = sum(x), s2 = sum((x - s1/D)^2), per row mean = s1/D and
// r = rsqrt(s2/D + eps), then y = (x - mean)*r*gamma + beta elementwise.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.+]]: tensor<?x7xf32>, %[[GAMMA:.+]]: tensor<7xf32>, %[[BETA:.+]]: tensor<7xf32>)
// CHECK-DAG: %[[EPS:.+]] = arith.constant 9.99999974E-6 : f32
// CHECK-DAG: %[[INV:.+]] = arith.constant 0.142857149 : f32
// CHECK: %[[S1:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x7xf32>)
// CHECK: %[[S2:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[S1]] :
// CHECK: %[[ST:.+]]:2 = linalg.generic {{.*}} ins(%[[S1]], %[[S2]] :
// CHECK:   %[[MEAN:.+]] = arith.mulf %{{.*}}, %[[INV]]
// CHECK:   %[[VAR:.+]] = arith.mulf %{{.*}}, %[[INV]]
// CHECK:   %[[VE:.+]] = arith.addf %[[VAR]], %[[EPS]]
// CHECK:   %[[R:.+]] = math.rsqrt %[[VE]]
// CHECK:   linalg.yield %[[MEAN]], %[[R]]
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[COL]], #[[ROW]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[GAMMA]], %[[BETA]], %[[ST]]#1, %[[ST]]#0 :
// CHECK: ^bb0(%[[XI:.+]]: f32, %[[GI:.+]]: f32, %[[BI:.+]]: f32, %[[RI:.+]]: f32, %[[MI:.+]]: f32, %{{.*}}: f32):
// CHECK:   %[[C:.+]] = arith.subf %[[XI]], %[[MI]]
// CHECK:   %[[XH:.+]] = arith.mulf %[[C]], %[[RI]]
// CHECK:   %[[SC:.+]] = arith.mulf %[[XH]], %[[GI]]
// CHECK:   %[[YI:.+]] = arith.addf %[[SC]], %[[BI]]
// CHECK:   linalg.yield %[[YI]]
// CHECK-NOT: rlx.
// CHECK: return %[[Y]]
func.func @layer_norm(%x: tensor<?x7xf32>, %gamma: tensor<7xf32>, %beta: tensor<7xf32>) -> tensor<?x7xf32> {
  %y = rlx.layer_norm %x, %gamma, %beta {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<?x7xf32>, tensor<7xf32>, tensor<7xf32> -> tensor<?x7xf32>
  return %y : tensor<?x7xf32>
}

// -----

// rms_norm: ss = sum(x^2), per row r = rsqrt(ss/D + eps), y = x*r*gamma + beta.
// CHECK-LABEL: func.func @rms_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x?x8xf64>, %[[GAMMA:.+]]: tensor<8xf64>, %[[BETA:.+]]: tensor<8xf64>)
// CHECK: %[[SS:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] :
// CHECK:   arith.mulf
// CHECK: %[[R:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[SS]] :
// CHECK:   math.rsqrt
// CHECK: %[[Y:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[GAMMA]], %[[BETA]], %[[R]] :
// CHECK-NOT: arith.subf
// CHECK: return %[[Y]]
func.func @rms_norm(%x: tensor<2x?x8xf64>, %gamma: tensor<8xf64>, %beta: tensor<8xf64>) -> tensor<2x?x8xf64> {
  %y = rlx.rms_norm %x, %gamma, %beta {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<2x?x8xf64>, tensor<8xf64>, tensor<8xf64> -> tensor<2x?x8xf64>
  return %y : tensor<2x?x8xf64>
}

// -----

// group_norm: the layer_norm formula on the [N, G, C/G, H*W] view (the
// spatial dims merged first, so that the statistics run over contiguous
// rows), gamma and beta viewed as [G, C/G]; 1/n = 1/((C/G)*H*W) = 1/45.
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NG:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[GC:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @group_norm
// CHECK-SAME: (%[[X:.+]]: tensor<?x6x5x3xf32>, %[[GAMMA:.+]]: tensor<6xf32>, %[[BETA:.+]]: tensor<6xf32>)
// CHECK-DAG: arith.constant 0.0222222228 : f32
// CHECK: %[[X3:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : tensor<?x6x5x3xf32> into tensor<?x6x15xf32>
// CHECK: %[[X4:.+]] = tensor.expand_shape %[[X3]] {{\[\[}}0], [1, 2], [3]] output_shape [%{{.*}}, 2, 3, 15] : tensor<?x6x15xf32> into tensor<?x2x3x15xf32>
// CHECK: %[[G2:.+]] = tensor.expand_shape %[[GAMMA]] {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK: %[[B2:.+]] = tensor.expand_shape %[[BETA]] {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK: %[[S1:.+]] = linalg.generic {indexing_maps = [#[[ID4]], #[[NG]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X4]] :
// CHECK: %[[S2:.+]] = linalg.generic {indexing_maps = [#[[ID4]], #[[NG]], #[[NG]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X4]], %[[S1]] :
// CHECK: %[[ST:.+]]:2 = linalg.generic {{.*}} ins(%[[S1]], %[[S2]] :
// CHECK: %[[Y4:.+]] = linalg.generic {indexing_maps = [#[[ID4]], #[[GC]], #[[GC]], #[[NG]], #[[NG]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X4]], %[[G2]], %[[B2]], %[[ST]]#1, %[[ST]]#0 :
// CHECK: %[[Y3:.+]] = tensor.collapse_shape %[[Y4]] {{\[\[}}0], [1, 2], [3]] : tensor<?x2x3x15xf32> into tensor<?x6x15xf32>
// CHECK: %[[Y:.+]] = tensor.expand_shape %[[Y3]] {{\[\[}}0], [1], [2, 3]] output_shape [%{{.*}}, 6, 5, 3] : tensor<?x6x15xf32> into tensor<?x6x5x3xf32>
// CHECK: return %[[Y]]
func.func @group_norm(%x: tensor<?x6x5x3xf32>, %gamma: tensor<6xf32>, %beta: tensor<6xf32>) -> tensor<?x6x5x3xf32> {
  %y = rlx.group_norm %x, %gamma, %beta {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32> -> tensor<?x6x5x3xf32>
  return %y : tensor<?x6x5x3xf32>
}
