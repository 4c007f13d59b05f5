// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s

// Per channel along a middle axis, dynamic batch: max|x| reduces every dim
// but the axis into [C]; then one generic over (x, dy):
// s = m/qmax, dx = (s == 0) ? dy : (|x| <= qmax*s ? dy : 0), with the bound
// qmax*s taken as m itself (exact; the rounded product could clip the max).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @clipped_per_channel
// CHECK-SAME: (%[[X:.+]]: tensor<?x5x7xf32>, %[[DY:.+]]: tensor<?x5x7xf32>)
// CHECK-DAG: %[[QMAX:.+]] = arith.constant 1.270000e+02 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ME:.+]] = tensor.empty() : tensor<5xf32>
// CHECK: %[[MI:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ME]] : tensor<5xf32>)
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]]], iterator_types = ["reduction", "parallel", "reduction"]} ins(%[[X]] : tensor<?x5x7xf32>) outs(%[[MI]] : tensor<5xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[A:.+]] = math.absf %[[XV]]
// CHECK-NEXT: %[[MAX:.+]] = arith.maximumf %[[ACC]], %[[A]]
// CHECK-NEXT: linalg.yield %[[MAX]]
// CHECK: %[[B:.+]] = tensor.dim %[[X]]
// CHECK: %[[E:.+]] = tensor.empty(%[[B]]) : tensor<?x5x7xf32>
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[DY]], %[[M]] : tensor<?x5x7xf32>, tensor<?x5x7xf32>, tensor<5xf32>) outs(%[[E]] : tensor<?x5x7xf32>)
// CHECK-NEXT: ^bb0(%[[XV2:.+]]: f32, %[[DYV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[MV]], %[[QMAX]]
// CHECK-NEXT: %[[AX:.+]] = math.absf %[[XV2]]
// CHECK-NEXT: %[[IN:.+]] = arith.cmpf ole, %[[AX]], %[[MV]]
// CHECK-NEXT: %[[CLIP:.+]] = arith.select %[[IN]], %[[DYV]], %[[ZERO]]
// CHECK-NEXT: %[[SZ:.+]] = arith.cmpf oeq, %[[S]], %[[ZERO]]
// CHECK-NEXT: %[[R:.+]] = arith.select %[[SZ]], %[[DYV]], %[[CLIP]]
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK: return %[[G]]
func.func @clipped_per_channel(%x: tensor<?x5x7xf32>, %dy: tensor<?x5x7xf32>) -> tensor<?x5x7xf32> {
  %dx = rlx.fake_quantize_backward %x, %dy {axis = 1 : i64, bits = 8 : i64, ste = #rlx.ste<clipped_identity>} : tensor<?x5x7xf32>, tensor<?x5x7xf32> -> tensor<?x5x7xf32>
  return %dx : tensor<?x5x7xf32>
}

// -----

// Per tensor: max|x| reduces every dim into a 0-d tensor.
// dx = (s == 0) ? dy : (1 - tanh(x/s)^2) * dy.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ALL:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @tanh_per_tensor
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf64>, %[[DY:.+]]: tensor<?x4xf64>)
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[QMAX:.+]] = arith.constant 7.000000e+00 : f64
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ALL]]], iterator_types = ["reduction", "reduction"]} ins(%[[X]] : tensor<?x4xf64>) outs(%{{.+}} : tensor<f64>)
// CHECK: math.absf
// CHECK: arith.maximumf
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ALL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[DY]], %[[M]] : tensor<?x4xf64>, tensor<?x4xf64>, tensor<f64>)
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f64, %[[DYV:.+]]: f64, %[[MV:.+]]: f64, %{{.+}}: f64):
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[MV]], %[[QMAX]]
// CHECK-NEXT: %[[Q:.+]] = arith.divf %[[XV]], %[[S]]
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[Q]]
// CHECK-NEXT: %[[T2:.+]] = arith.mulf %[[T]], %[[T]]
// CHECK-NEXT: %[[F:.+]] = arith.subf %[[ONE]], %[[T2]]
// CHECK-NEXT: %[[GR:.+]] = arith.mulf %[[F]], %[[DYV]]
// CHECK-NEXT: %[[SZ:.+]] = arith.cmpf oeq, %[[S]]
// CHECK-NEXT: %[[R:.+]] = arith.select %[[SZ]], %[[DYV]], %[[GR]]
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK: return %[[G]]
func.func @tanh_per_tensor(%x: tensor<?x4xf64>, %dy: tensor<?x4xf64>) -> tensor<?x4xf64> {
  %dx = rlx.fake_quantize_backward %x, %dy {bits = 4 : i64, ste = #rlx.ste<tanh>} : tensor<?x4xf64>, tensor<?x4xf64> -> tensor<?x4xf64>
  return %dx : tensor<?x4xf64>
}

// -----

// Per channel along axis 0: dx = dy * max(0, 1 - |x|/(qmax*s)), dy where s == 0
// (qmax*s = m, the channel's max|x|).
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @hard_tanh_axis0
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #[[ROW]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%{{.+}}, %{{.+}}, %[[M]] :
// CHECK-NEXT: ^bb0(%{{.+}}: f32, %{{.+}}: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[MV]]
// CHECK-NEXT: %[[A:.+]] = math.absf
// CHECK-NEXT: %[[RATIO:.+]] = arith.divf %[[A]], %[[MV]]
// CHECK-NEXT: %[[F:.+]] = arith.subf %{{.+}}, %[[RATIO]]
// CHECK-NEXT: %[[FC:.+]] = arith.maximumf %[[F]]
// CHECK-NEXT: arith.mulf %[[FC]]
// CHECK-NEXT: arith.cmpf oeq, %[[S]]
// CHECK-NEXT: arith.select
func.func @hard_tanh_axis0(%x: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %dx = rlx.fake_quantize_backward %x, %dy {axis = 0 : i64, bits = 8 : i64, ste = #rlx.ste<hard_tanh>} : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %dx : tensor<3x4xf32>
}

// -----

// identity: dx = dy, nothing to compute.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%{{.+}}: tensor<?x4xf32>, %[[DY:.+]]: tensor<?x4xf32>)
// CHECK-NEXT: return %[[DY]]
func.func @identity(%x: tensor<?x4xf32>, %dy: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %dx = rlx.fake_quantize_backward %x, %dy {axis = -1 : i64, bits = 2 : i64, ste = #rlx.ste<identity>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %dx : tensor<?x4xf32>
}
