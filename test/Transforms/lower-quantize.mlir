// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// Per channel (axis 1 of 3, dynamic batch): max|x| into [C], then
// y = (s == 0) ? x : clamp(roundeven(x/s), -qmax, qmax) * s, s = m/qmax.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[CH:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @per_channel
// CHECK-SAME: (%[[X:.+]]: tensor<?x5x7xf32>)
// CHECK-DAG: %[[NQ:.+]] = arith.constant -7.000000e+00 : f32
// CHECK-DAG: %[[QMAX:.+]] = arith.constant 7.000000e+00 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]]], iterator_types = ["reduction", "parallel", "reduction"]} ins(%[[X]] : tensor<?x5x7xf32>) outs(%{{.+}} : tensor<5xf32>)
// CHECK: math.absf
// CHECK: arith.maximumf
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[M]] : tensor<?x5x7xf32>, tensor<5xf32>) outs(%{{.+}} : tensor<?x5x7xf32>)
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[MV]], %[[QMAX]]
// CHECK-NEXT: %[[D:.+]] = arith.divf %[[XV]], %[[S]]
// CHECK-NEXT: %[[R:.+]] = math.roundeven %[[D]]
// CHECK-NEXT: %[[LO:.+]] = arith.maximumf %[[R]], %[[NQ]]
// CHECK-NEXT: %[[HI:.+]] = arith.minimumf %[[LO]], %[[QMAX]]
// CHECK-NEXT: %[[SZ:.+]] = arith.cmpf oeq, %[[S]], %[[ZERO]]
// CHECK-NEXT: %[[DQ:.+]] = arith.mulf %[[HI]], %[[S]]
// CHECK-NEXT: %[[OUT:.+]] = arith.select %[[SZ]], %[[XV]], %[[DQ]]
// CHECK-NEXT: linalg.yield %[[OUT]]
// CHECK-NOT: rlx.
// CHECK: return %[[Y]]
func.func @per_channel(%x: tensor<?x5x7xf32>) -> tensor<?x5x7xf32> {
  %y = rlx.fake_quantize %x {axis = 1 : i64, bits = 4 : i64} : tensor<?x5x7xf32> -> tensor<?x5x7xf32>
  return %y : tensor<?x5x7xf32>
}

// -----

// Per tensor (8 bits): a 0-d max|x|.
// CHECK-DAG: #[[ALL:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @per_tensor
// CHECK-DAG: arith.constant 1.270000e+02 : f64
// CHECK-DAG: arith.constant -1.270000e+02 : f64
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[ALL]]], iterator_types = ["reduction", "reduction"]} {{.*}} outs(%{{.+}} : tensor<f64>)
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[ALL]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%{{.+}}, %[[M]] : tensor<?x?xf64>, tensor<f64>)
// CHECK: math.roundeven
func.func @per_tensor(%x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %y = rlx.fake_quantize %x {bits = 8 : i64, ste = #rlx.ste<tanh>} : tensor<?x?xf64> -> tensor<?x?xf64>
  return %y : tensor<?x?xf64>
}
