// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg | FileCheck %s

// y = max over each 3x3 window (stride 2) of x padded by 1 with -inf:
// tensor.pad + linalg.pooling_nchw_max (body arith.maximumf, NaN propagates).
// Dynamic batch and height: Ho = max(floordiv(H + 2 - 3, 2) + 1, 0) (0 when
// the runtime H is too small for one window).
// CHECK-LABEL: func.func @max_pool2d
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x?x8xf32>)
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[CM1:.+]] = arith.constant -1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %[[C0]]
// CHECK: %[[H:.+]] = tensor.dim %[[X]], %[[C2]]
// CHECK: %[[T0:.+]] = arith.addi %[[H]], %[[CM1]] : index
// CHECK: %[[T1:.+]] = arith.floordivsi %[[T0]], %[[C2]] : index
// CHECK: %[[T2:.+]] = arith.addi %[[T1]], %[[C1]] : index
// CHECK: %[[HO:.+]] = arith.maxsi %[[T2]], %[[C0]] : index
// CHECK: %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NEGINF]] : f32
// CHECK: } : tensor<?x3x?x8xf32> to tensor<?x3x?x10xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[N]], %[[HO]]) : tensor<?x3x?x4xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[E]]
// CHECK: %[[WIN:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[Y:.+]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %[[WIN]] : tensor<?x3x?x10xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<?x3x?x4xf32>)
// CHECK-NOT: rlx.
// CHECK: return %[[Y]]
func.func @max_pool2d(%x: tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x?x8xf32> -> tensor<?x3x?x4xf32>
  return %y : tensor<?x3x?x4xf32>
}

// -----

// No padding: no tensor.pad; non-square kernel and stride.
// CHECK-LABEL: func.func @no_padding
// CHECK-SAME: (%[[X:.+]]: tensor<2x4x7x9xf64>)
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f64) outs(%{{.+}} : tensor<2x4x3x7xf64>)
// CHECK: %[[WIN:.+]] = tensor.empty() : tensor<2x3xf64>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%[[X]], %[[WIN]] : tensor<2x4x7x9xf64>, tensor<2x3xf64>) outs(%[[INIT]] : tensor<2x4x3x7xf64>)
func.func @no_padding(%x: tensor<2x4x7x9xf64>) -> tensor<2x4x3x7xf64> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 1>} : tensor<2x4x7x9xf64> -> tensor<2x4x3x7xf64>
  return %y : tensor<2x4x3x7xf64>
}

// -----

// A result type more dynamic than x gets a tensor.cast.
// CHECK-LABEL: func.func @cast_result
// CHECK: %[[Y:.+]] = linalg.pooling_nchw_max
// CHECK: tensor.cast %[[Y]] : tensor<1x2x2x2xf32> to tensor<?x2x?x?xf32>
func.func @cast_result(%x: tensor<1x2x4x4xf32>) -> tensor<?x2x?x?xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<?x2x?x?xf32>
  return %y : tensor<?x2x?x?xf32>
}

// -----

// Ceil mode with dilation, static: H = 7, k = 3, d = 2 (window 5), s = 2,
// p = 1: Ho = ceil((7 + 2 - 5) / 2) + 1 = 3, the last window [4, 9) fits the
// padded input. W = 7, k = 2, s = 2, p = 0: Wo = ceil(5 / 2) + 1 = 4, the
// last window [6, 8) reaches one past x: high padding 1 (-inf) in W only.
// CHECK-LABEL: func.func @ceil_dilation
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x7x7xf32>)
// CHECK: %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 0] high[0, 0, 1, 1]
// CHECK: } : tensor<2x3x7x7xf32> to tensor<2x3x9x8xf32>
// CHECK: %[[Y:.+]] = linalg.pooling_nchw_max {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.+}} : tensor<2x3x9x8xf32>, tensor<3x2xf32>) outs(%{{.+}} : tensor<2x3x3x4xf32>)
// CHECK: return %[[Y]]
func.func @ceil_dilation(%x: tensor<2x3x7x7xf32>) -> tensor<2x3x3x4xf32> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>, ceil_mode = true} : tensor<2x3x7x7xf32> -> tensor<2x3x3x4xf32>
  return %y : tensor<2x3x3x4xf32>
}

// -----

// Ceil mode, dynamic H: Ho = floordiv(H + 2 - 3 + 1, 2) + 1, minus 1 when the
// last window would start at or past H + p; the high padding is
// max(p, (Ho - 1) * 2 + 3 - H - 1), dynamic. W = 6: Wo = 4, high padding 2.
// CHECK-LABEL: func.func @ceil_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x?x6xf64>)
// CHECK: %[[H:.+]] = tensor.dim %[[X]]
// CHECK: arith.floordivsi
// CHECK: %[[PAST:.+]] = arith.cmpi sge
// CHECK: %[[HO0:.+]] = arith.select %[[PAST]]
// CHECK: %[[HO:.+]] = arith.maxsi %[[HO0]]
// CHECK: %[[HIGH:.+]] = arith.maxsi
// CHECK: %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, %[[HIGH]], 2]
// CHECK: } : tensor<1x2x?x6xf64> to tensor<1x2x?x9xf64>
// CHECK: %[[E:.+]] = tensor.empty(%[[HO]]) : tensor<1x2x?x4xf64>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.+}} : tensor<1x2x?x9xf64>, tensor<3x3xf64>)
func.func @ceil_dynamic(%x: tensor<1x2x?x6xf64>) -> tensor<1x2x?x4xf64> {
  %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : tensor<1x2x?x6xf64> -> tensor<1x2x?x4xf64>
  return %y : tensor<1x2x?x4xf64>
}
