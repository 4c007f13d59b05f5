// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=max-pool-scatter=0 | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward | FileCheck %s --check-prefix=SCATTER
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=max-pool-direct=0 | FileCheck %s --check-prefix=NODIRECT

// Default (max-pool-scatter, max-pool-direct), dilation 1 and static
// planes: the first in-bounds column of each window, max(2*wo - 1, 0), as a
// table (an input of the argmax, not a max in its body); one (n, c) plane
// per scf.forall iteration; the plane padded with -inf and split into its
// two column phases (8x8 into 9x2x5: x[h, w] at [1 + h, w mod 2,
// 1 + w div 2], a transpose of its [8, 4, 2] view); one generic over
// (ho, wo) whose unrolled taps read unit-stride rows of the phases and
// select the flat index h*8 + w of the first max (v > max or v is NaN;
// start: the first in-bounds position), written into a -1 filled 5x5
// buffer; then, for each row phase of dx viewed as 4x2x4x2, one
// elementwise generic over (i, j, column phase) that adds, in window order,
// dy of the windows (i + a, j + b) that reach the phase where the window's
// argmax is the position: row phase 0 only a = 0, row phase 1 a in {0, 1};
// window column j + 1 only column phase 1 (a condition on linalg.index 2).
// No scatter loops.
// SCATTER-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// SCATTER-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// SCATTER-DAG: #[[PWIN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// SCATTER-DAG: #[[PID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// SCATTER-LABEL: func.func @max_pool2d_backward
// SCATTER-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>, %[[DY:.+]]: tensor<?x3x4x4xf32>)
// SCATTER: %[[FIRST:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<4xi32>)
// SCATTER: arith.maxsi
// SCATTER: %[[DX:.+]] = scf.forall (%[[N:.+]], %[[C:.+]]) in (%{{.+}}, 3) shared_outs(%[[OUT:.+]] = %{{.+}})
// SCATTER: %[[XPL:.+]] = tensor.extract_slice %[[X]][%[[N]], %[[C]], 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<?x3x8x8xf32> to tensor<8x8xf32>
// SCATTER: %[[DYPL:.+]] = tensor.extract_slice %[[DY]][%[[N]], %[[C]], 0, 0] [1, 1, 4, 4]
// SCATTER: %[[PLANE:.+]] = tensor.extract_slice %[[OUT]][%[[N]], %[[C]], 0, 0] [1, 1, 8, 8]
// SCATTER: %[[NONE:.+]] = linalg.fill ins(%{{.+}} : i32) outs(%{{.+}} : tensor<5x5xi32>)
// SCATTER: %[[WINDOWS:.+]] = tensor.extract_slice %[[NONE]][0, 0] [4, 4] [1, 1]
// SCATTER: linalg.generic {{.+}} outs(%{{.+}} : tensor<90xf32>)
// SCATTER: %[[PH:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1, 2]] output_shape [9, 2, 5]
// SCATTER: %[[GROUPS:.+]] = tensor.expand_shape %[[XPL]] {{\[\[}}0], [1, 2]] output_shape [8, 4, 2]
// SCATTER: %[[T:.+]] = linalg.transpose ins(%[[GROUPS]] : tensor<8x4x2xf32>) outs(%{{.+}} : tensor<8x2x4xf32>) permutation = [0, 2, 1]
// SCATTER: %[[XP:.+]] = tensor.insert_slice %[[T]] into %[[PH]][1, 0, 1] [8, 2, 4] [1, 1, 1]
// SCATTER: %[[BEST:.+]] = linalg.generic {indexing_maps = [#[[ROW]], #[[ID2]]], {{.+}} ins(%[[FIRST]] : tensor<4xi32>) outs(%[[WINDOWS]] : tensor<4x4xi32>)
// SCATTER-COUNT-9: tensor.extract %[[XP]]
// SCATTER: linalg.yield %{{.+}} : i32
// SCATTER: %[[BESTP:.+]] = tensor.insert_slice %[[BEST]] into %[[NONE]][0, 0] [4, 4] [1, 1]
// SCATTER: %[[DYP:.+]] = tensor.insert_slice %[[DYPL]] into %{{.+}}[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<5x5xf32>
// SCATTER: %[[PHASES:.+]] = tensor.expand_shape %[[PLANE]] {{\[\[}}0, 1], [2, 3]] output_shape [4, 2, 4, 2]
// SCATTER: %[[B01:.+]] = tensor.extract_slice %[[BESTP]][0, 1] [4, 4] [1, 1]
// SCATTER: %[[G01:.+]] = tensor.extract_slice %[[DYP]][0, 1] [4, 4] [1, 1]
// SCATTER: %[[ROW0:.+]] = tensor.extract_slice %[[PHASES]][0, 0, 0, 0] [4, 1, 4, 2] [1, 1, 1, 1] : tensor<4x2x4x2xf32> to tensor<4x4x2xf32>
// SCATTER: %[[SUM0:.+]] = linalg.generic {indexing_maps = [#[[PWIN]], #[[PWIN]], #[[PWIN]], #[[PWIN]], #[[PID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[BEST]], %[[DYPL]], %[[B01]], %[[G01]] : {{.+}}) outs(%[[ROW0]] : tensor<4x4x2xf32>)
// SCATTER: ^bb0(%[[W00:.+]]: i32, %[[D00:.+]]: f32, %[[W01:.+]]: i32, %[[D01:.+]]: f32, %{{.+}}: f32):
// SCATTER: %[[POS:.+]] = arith.addi %{{.+}}, %{{.+}} : i32
// SCATTER: %[[H00:.+]] = arith.cmpi eq, %[[W00]], %[[POS]] : i32
// SCATTER: %[[A00:.+]] = arith.addf %[[D00]], %[[ZEROF:.+]] : f32
// SCATTER: %[[S00:.+]] = arith.select %[[H00]], %[[A00]], %[[ZEROF]] : f32
// SCATTER: %[[H01:.+]] = arith.cmpi eq, %[[W01]], %[[POS]] : i32
// SCATTER: %[[PW:.+]] = linalg.index 2 : index
// SCATTER: %[[REACH:.+]] = arith.cmpi sge, %[[PW]], %{{.+}} : index
// SCATTER: %[[HIT01:.+]] = arith.andi %[[H01]], %[[REACH]] : i1
// SCATTER: %[[A01:.+]] = arith.addf %[[S00]], %[[D01]] : f32
// SCATTER: %[[S01:.+]] = arith.select %[[HIT01]], %[[A01]], %[[S00]] : f32
// SCATTER: linalg.yield %[[S01]] : f32
// SCATTER: %[[DX0:.+]] = tensor.insert_slice %[[SUM0]] into %[[PHASES]][0, 0, 0, 0] [4, 1, 4, 2]
// SCATTER: %[[ROW1:.+]] = tensor.extract_slice %[[DX0]][0, 1, 0, 0] [4, 1, 4, 2]
// SCATTER: linalg.generic {{.+}} ins(%[[BEST]], %[[DYPL]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : {{.+}}) outs(%[[ROW1]] : tensor<4x4x2xf32>)
// SCATTER-COUNT-4: arith.cmpi eq
// SCATTER: linalg.yield
// SCATTER: tensor.insert_slice %{{.+}} into %[[DX0]][0, 1, 0, 0] [4, 1, 4, 2]
// SCATTER: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2, 3]] : tensor<4x2x4x2xf32> into tensor<8x8xf32>
// SCATTER-NOT: scf.for {{.+}} -> (tensor
// SCATTER: tensor.parallel_insert_slice %{{.+}} into %[[OUT]][%[[N]], %[[C]], 0, 0] [1, 1, 8, 8]
// SCATTER: return %[[DX]]
// With max-pool-direct=0: the same argmax into a 4x4 tensor, then a zeroed
// plane and scf.for loops over the 4x4 windows that add dy at each argmax.
// NODIRECT-LABEL: func.func @max_pool2d_backward
// NODIRECT: linalg.transpose
// NODIRECT: %[[NBEST:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<4x4xi32>)
// NODIRECT: %[[NZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<8x8xf32>)
// NODIRECT: tensor.collapse_shape %[[NZERO]] {{\[\[}}0, 1]] : tensor<8x8xf32> into tensor<64xf32>
// NODIRECT: scf.for {{.+}} -> (tensor<64xf32>)
// NODIRECT: scf.for {{.+}} -> (tensor<64xf32>)
// NODIRECT: tensor.extract %[[NBEST]]
// NODIRECT: tensor.extract
// NODIRECT: arith.addf
// NODIRECT: tensor.insert
// NODIRECT: tensor.expand_shape
// NODIRECT: return

// Dynamic batch, overlapping 3x3 windows, stride 2, padding 1.
// Generic 1 over (n, c, ho, wo, kh, kw): per window the max and its argmax
// kh*3 + kw, read from x at a clamped index; take v where it is in bounds and
// (no winner yet, or v > max, or v == max at an earlier index, or v is NaN
// and max is a number or v comes later).
// CHECK-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @max_pool2d_backward
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>, %[[DY:.+]]: tensor<?x3x4x4xf32>)
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[NONE:.+]] = arith.constant -1 : i64
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[WINDOW:.+]] = tensor.empty() : tensor<3x3xi1>
// CHECK: %[[N:.+]] = tensor.dim %[[DY]], %{{.+}} : tensor<?x3x4x4xf32>
// CHECK: %[[MAXE:.+]] = tensor.empty(%[[N]]) : tensor<?x3x4x4xf32>
// CHECK: %[[MAX0:.+]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[MAXE]]
// CHECK: %[[ARGE:.+]] = tensor.empty(%{{.+}}) : tensor<?x3x4x4xi64>
// CHECK: %[[ARG0:.+]] = linalg.fill ins(%[[NONE]] : i64) outs(%[[ARGE]]
// CHECK: %[[BEST:.+]]:2 = linalg.generic {indexing_maps = [#[[WIN]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[WINDOW]] : tensor<3x3xi1>) outs(%[[MAX0]], %[[ARG0]] : tensor<?x3x4x4xf32>, tensor<?x3x4x4xi64>)
// CHECK: ^bb0(%{{.+}}: i1, %[[ACC:.+]]: f32, %[[AM:.+]]: i64):
// CHECK: %[[V:.+]] = tensor.extract %[[X]]
// CHECK: arith.cmpf uno, %[[V]], %[[V]]
// CHECK: arith.cmpf ord, %[[ACC]], %[[ACC]]
// CHECK: arith.cmpf ogt, %[[V]], %[[ACC]]
// CHECK: arith.cmpf oeq, %[[V]], %[[ACC]]
// CHECK: %[[NEWMAX:.+]] = arith.select %[[TAKE:.+]], %[[V]], %[[ACC]] : f32
// CHECK-NEXT: %[[NEWAM:.+]] = arith.select %[[TAKE]], %{{.+}}, %[[AM]] : i64
// CHECK: linalg.yield %[[NEWMAX]], %[[NEWAM]] : f32, i64
// Generic 2 over (n, c, h, w, a, b), a, b < ceil(3/2): dx[h, w] sums dy of
// the windows containing (h, w) whose argmax is (h, w).
// CHECK: %[[SPAN:.+]] = tensor.empty() : tensor<2x2xi1>
// CHECK: %[[DXE:.+]] = tensor.empty(%{{.+}}) : tensor<?x3x8x8xf32>
// CHECK: %[[DX0:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[DXE]]
// CHECK: %[[DX:.+]] = linalg.generic {indexing_maps = [#[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[SPAN]] : tensor<2x2xi1>) outs(%[[DX0]] : tensor<?x3x8x8xf32>)
// CHECK: ^bb0(%{{.+}}: i1, %[[DACC:.+]]: f32):
// CHECK: %[[W:.+]] = tensor.extract %[[BEST]]#1[
// CHECK: %[[G:.+]] = tensor.extract %[[DY]][
// CHECK: %[[HIT0:.+]] = arith.cmpi eq, %[[W]], %{{.+}} : i64
// CHECK: %[[HIT:.+]] = arith.andi %{{.+}}, %[[HIT0]] : i1
// CHECK: %[[SUM:.+]] = arith.addf %[[DACC]], %[[G]] : f32
// CHECK: %[[NEW:.+]] = arith.select %[[HIT]], %[[SUM]], %[[DACC]] : f32
// CHECK: linalg.yield %[[NEW]] : f32
// CHECK-NOT: rlx.
// CHECK: return %[[DX]]
func.func @max_pool2d_backward(%x: tensor<?x3x8x8xf32>, %dy: tensor<?x3x4x4xf32>) -> tensor<?x3x8x8xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x8x8xf32>, tensor<?x3x4x4xf32> -> tensor<?x3x8x8xf32>
  return %dx : tensor<?x3x8x8xf32>
}

// -----

// Non-square kernel 2x3 with stride (2, 1), dynamic planes: the default
// (max-pool-scatter) takes the scalar per-window loops.
// SCATTER-LABEL: func.func @dynamic_nonsquare
// SCATTER: scf.forall
// SCATTER: scf.for {{.+}} -> (f64, index, index, i1)
// SCATTER: scf.for {{.+}} -> (f64, index, index, i1)
// SCATTER-NOT: linalg.generic
// SCATTER: return
// Windows per position
// ceil(2/2) x ceil(3/1) = 1x3. Fully dynamic shapes read H, W from x and
// Ho, Wo from dy.
// CHECK-LABEL: func.func @dynamic_nonsquare
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf64>, %[[DY:.+]]: tensor<?x?x?x?xf64>)
// CHECK-DAG: %[[H:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?x?x?xf64>
// CHECK-DAG: %[[W:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?x?x?xf64>
// CHECK-DAG: %[[HO:.+]] = tensor.dim %[[DY]], %{{.+}} : tensor<?x?x?x?xf64>
// CHECK-DAG: %[[WO:.+]] = tensor.dim %[[DY]], %{{.+}} : tensor<?x?x?x?xf64>
// CHECK: tensor.empty() : tensor<2x3xi1>
// CHECK: linalg.generic
// CHECK: arith.cmpi slt, %{{.+}}, %[[H]] : index
// CHECK: arith.cmpi slt, %{{.+}}, %[[W]] : index
// CHECK: tensor.empty() : tensor<1x3xi1>
// CHECK: linalg.generic
// CHECK: arith.cmpi slt, %{{.+}}, %[[HO]] : index
// CHECK: arith.cmpi slt, %{{.+}}, %[[WO]] : index
// CHECK-NOT: rlx.
func.func @dynamic_nonsquare(%x: tensor<?x?x?x?xf64>, %dy: tensor<?x?x?x?xf64>) -> tensor<?x?x?x?xf64> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 1>} : tensor<?x?x?x?xf64>, tensor<?x?x?x?xf64> -> tensor<?x?x?x?xf64>
  return %dx : tensor<?x?x?x?xf64>
}

// -----

// A result type more static than x gets a tensor.cast.
// CHECK-LABEL: func.func @cast_result
// CHECK: %{{.+}}:2 = linalg.generic
// CHECK: %[[DX:.+]] = linalg.generic
// CHECK: tensor.cast %[[DX]] : tensor<?x2x4x4xf32> to tensor<2x2x4x4xf32>
func.func @cast_result(%x: tensor<?x2x4x4xf32>, %dy: tensor<?x2x2x2xf32>) -> tensor<2x2x4x4xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x2x4x4xf32>, tensor<?x2x2x2xf32> -> tensor<2x2x4x4xf32>
  return %dx : tensor<2x2x4x4xf32>
}

// -----

// Dilation [2, 1] and ceil mode: the window position is origin + k*d
// (kh * 2); the gather-sum loops over ceil(e/s) candidate windows per axis,
// e = d*(k-1)+1 (here [3, 1]), and keeps a candidate when its offset is
// below e and a multiple of d (then kh = off / d). Ceil mode needs nothing
// more: dy's size bounds the windows, positions past x are skipped.
// CHECK-LABEL: func.func @dilation_ceil_mode
// CHECK: %[[ARG:.+]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.+}} : tensor<3x2xi1>)
// CHECK: %[[KH:.+]] = linalg.index 4 : index
// CHECK: %[[OH:.+]] = arith.muli %{{.+}}, %[[C2:.+]] : index
// CHECK: arith.muli %[[KH]], %[[C2]] : index
// CHECK: tensor.extract %{{.+}} : tensor<2x3x9x8xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.+}} : tensor<3x1xi1>) outs(%{{.+}} : tensor<2x3x9x8xf32>)
// CHECK: %[[REM:.+]] = arith.remui %{{.+}}, %{{.+}} : index
// CHECK: arith.cmpi eq, %[[REM]]
// CHECK: arith.divui
// CHECK-NOT: linalg.generic
func.func @dilation_ceil_mode(%x: tensor<2x3x9x8xf32>, %dy: tensor<2x3x4x4xf32>) -> tensor<2x3x9x8xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>, ceil_mode = true} : tensor<2x3x9x8xf32>, tensor<2x3x4x4xf32> -> tensor<2x3x9x8xf32>
  return %dx : tensor<2x3x9x8xf32>
}

// -----

// kernel == stride (2x2 windows, stride 2, no position in two windows),
// 10x11 planes with padding (1, 0): the argmax as above over 6x8 windows
// (Wo = 5 rounded up to a power of two; the phase plane is 12x2x8 so that
// every tap of the 8 windows per row is inside it; x's 11th column, past
// the whole column pairs, is inserted on its own), then (max-pool-direct)
// one elementwise generic over the window grid (ho, kh, wo, kw) = 6x2x5x2
// that selects dy[ho, wo] where (2*ho + kh - 1)*11 + 2*wo + kw is
// best[ho, wo] and 0 elsewhere: no scatter. Grid row r is x's row r - 1;
// the grid's 10 columns miss x's last one, so its part inside x goes into a
// zeroed plane. With max-pool-direct=0 the scatter loops.
// SCATTER-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
// SCATTER-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// SCATTER-LABEL: func.func @nonoverlapping
// SCATTER-SAME: (%{{.+}}: tensor<2x3x10x11xf64>, %[[DY:.+]]: tensor<2x3x6x5xf64>)
// SCATTER: scf.forall
// SCATTER: %[[XPL:.+]] = tensor.extract_slice %{{.+}} [1, 1, 10, 11]
// SCATTER: %[[DYPL:.+]] = tensor.extract_slice %[[DY]]
// SCATTER: %[[PLANE:.+]] = tensor.extract_slice %{{.+}} [1, 1, 10, 11]
// SCATTER: linalg.generic {{.+}} outs(%{{.+}} : tensor<192xf64>)
// SCATTER: linalg.transpose ins(%{{.+}} : tensor<10x5x2xf64>) outs(%{{.+}} : tensor<10x2x5xf64>)
// SCATTER: %[[LAST:.+]] = tensor.extract_slice %[[XPL]][0, 10] [10, 1] [1, 1] : tensor<10x11xf64> to tensor<10xf64>
// SCATTER: tensor.insert_slice %[[LAST]] into %{{.+}}[1, 0, 5] [10, 1, 1] [1, 1, 1] : tensor<10xf64> into tensor<12x2x8xf64>
// SCATTER: %[[BEST:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<6x8xi32>)
// SCATTER-COUNT-4: tensor.extract
// SCATTER: linalg.yield
// SCATTER: %[[GRID:.+]] = tensor.empty() : tensor<12x10xf64>
// SCATTER: %[[GRID4:.+]] = tensor.expand_shape %[[GRID]] {{\[\[}}0, 1], [2, 3]] output_shape [6, 2, 5, 2]
// SCATTER: %[[BESTV:.+]] = tensor.extract_slice %[[BEST]][0, 0] [6, 5] [1, 1] : tensor<6x8xi32> to tensor<6x5xi32>
// SCATTER: %[[SEL:.+]] = linalg.generic {indexing_maps = [#[[WIN]], #[[WIN]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[BESTV]], %[[DYPL]] : tensor<6x5xi32>, tensor<6x5xf64>) outs(%[[GRID4]] : tensor<6x2x5x2xf64>)
// SCATTER: ^bb0(%[[B:.+]]: i32, %[[G:.+]]: f64, %{{.+}}: f64):
// SCATTER: %[[HIT:.+]] = arith.cmpi eq, %{{.+}}, %[[B]] : i32
// SCATTER: %[[V:.+]] = arith.select %[[HIT]], %[[G]], %{{.+}} : f64
// SCATTER: linalg.yield %[[V]] : f64
// SCATTER: %[[FLAT:.+]] = tensor.collapse_shape %[[SEL]] {{\[\[}}0, 1], [2, 3]] : tensor<6x2x5x2xf64> into tensor<12x10xf64>
// SCATTER: %[[IN:.+]] = tensor.extract_slice %[[FLAT]][1, 0] [10, 10] [1, 1]
// SCATTER: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f64) outs(%[[PLANE]] : tensor<10x11xf64>)
// SCATTER: tensor.insert_slice %[[IN]] into %[[Z]][0, 0] [10, 10] [1, 1]
// SCATTER-NOT: scf.for {{.+}} -> (tensor
// SCATTER: tensor.parallel_insert_slice
// SCATTER: return
// CHECK-LABEL: func.func @nonoverlapping
// NODIRECT-LABEL: func.func @nonoverlapping
// NODIRECT: scf.for
// NODIRECT: arith.addf
func.func @nonoverlapping(%x: tensor<2x3x10x11xf64>, %dy: tensor<2x3x6x5xf64>) -> tensor<2x3x10x11xf64> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 0>} : tensor<2x3x10x11xf64>, tensor<2x3x6x5xf64> -> tensor<2x3x10x11xf64>
  return %dx : tensor<2x3x10x11xf64>
}
