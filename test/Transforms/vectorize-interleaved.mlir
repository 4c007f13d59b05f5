// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512' | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512' \
// RUN:   --one-shot-bufferize='bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map' \
// RUN:   | FileCheck %s --check-prefix=BUF

// rlx-vectorize-rows on generics whose innermost loop is a few output
// phases that only the output walks (max_pool2d_backward's dx by stride
// phases). Here dx[i, j, pw] = dy[i, j] where best[i, j] == 2*j + pw (the
// flat position), over 4 x 35 x 2: the column loop j is the vector dim,
// 16 columns (f32 and i32 lanes at 512 bits) per iteration and the 3 left
// over once more at their width. Each input is read once per tile, the
// body is cloned per phase (pw a constant), and one shuffle interleaves
// the two phases into a contiguous vector<32> written at column 2*j.
// CHECK-LABEL: func.func @two_phases
// CHECK-SAME: (%[[BEST:.+]]: tensor<4x35xi32>, %[[DY:.+]]: tensor<4x35xf32>, %[[OUT:.+]]: tensor<4x35x2xf32>)
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[OUT]] {{\[\[}}0], [1, 2]] : tensor<4x35x2xf32> into tensor<4x70xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[FLAT]])
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %c32 step %c16 iter_args(%[[ROW:.+]] = %[[ACC]])
// CHECK-DAG: %[[B:.+]] = vector.transfer_read %[[BEST]][%[[I]], %[[J]]], {{.+}} {in_bounds = [true]} : tensor<4x35xi32>, vector<16xi32>
// CHECK-DAG: %[[G:.+]] = vector.transfer_read %[[DY]][%[[I]], %[[J]]], {{.+}} {in_bounds = [true]} : tensor<4x35xf32>, vector<16xf32>
// CHECK-DAG: vector.step : vector<16xindex>
// CHECK: %[[H0:.+]] = arith.cmpi eq, %[[B]], %{{.+}} : vector<16xi32>
// CHECK: %[[V0:.+]] = arith.select %[[H0]], %[[G]], %{{.+}} : vector<16xi1>, vector<16xf32>
// CHECK: %[[H1:.+]] = arith.cmpi eq, %[[B]], %{{.+}} : vector<16xi32>
// CHECK: %[[V1:.+]] = arith.select %[[H1]], %[[G]], %{{.+}} : vector<16xi1>, vector<16xf32>
// CHECK: %[[CAT:.+]] = vector.shuffle %[[V0]], %[[V1]] [0, 1, 2, {{.+}}, 31] : vector<16xf32>, vector<16xf32>
// CHECK: %[[MIX:.+]] = vector.shuffle %[[CAT]], %[[CAT]] [0, 16, 1, 17, 2, 18, {{.+}}, 15, 31] : vector<32xf32>, vector<32xf32>
// CHECK: %[[COL:.+]] = arith.muli %[[J]], %c2 : index
// CHECK: vector.transfer_write %[[MIX]], %[[ROW]][%[[I]], %[[COL]]] {in_bounds = [true]} : vector<32xf32>, tensor<4x70xf32>
// The 3 columns left: vector<3>, interleaved into vector<6> at column 64.
// CHECK: vector.transfer_read %[[BEST]][%[[I]], %c32], {{.+}} : tensor<4x35xi32>, vector<3xi32>
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 3, 1, 4, 2, 5] : vector<6xf32>, vector<6xf32>
// CHECK: vector.transfer_write %{{.+}}, %{{.+}}[%[[I]], %c64] {in_bounds = [true]} : vector<6xf32>, tensor<4x70xf32>
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2]] output_shape [4, 35, 2] : tensor<4x70xf32> into tensor<4x35x2xf32>
// CHECK-NOT: linalg.generic
// The stores write the output in place, one contiguous vector each.
// BUF-LABEL: func.func @two_phases
// BUF-NOT: memref.alloc
// BUF: vector.transfer_write %{{.+}}, %{{.+}} {in_bounds = [true]} : vector<32xf32>, memref<4x70xf32>
#win = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @two_phases(%best: tensor<4x35xi32>, %dy: tensor<4x35xf32>, %out: tensor<4x35x2xf32>) -> tensor<4x35x2xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %r = linalg.generic {indexing_maps = [#win, #win, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%best, %dy : tensor<4x35xi32>, tensor<4x35xf32>) outs(%out : tensor<4x35x2xf32>) {
  ^bb0(%b: i32, %g: f32, %o: f32):
    %j = linalg.index 1 : index
    %pw = linalg.index 2 : index
    %col = arith.muli %j, %c2 : index
    %pos = arith.addi %col, %pw : index
    %p = arith.index_cast %pos : index to i32
    %hit = arith.cmpi eq, %b, %p : i32
    %v = arith.select %hit, %g, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x35x2xf32>
  return %r : tensor<4x35x2xf32>
}

// -----

// Three phases, an input that does not walk the columns (one element per
// row, broadcast) and a condition on the phase that folds per clone: phase
// 0 keeps dy, phases 1 and 2 the row's scale.
// CHECK-LABEL: func.func @three_phases
// CHECK: scf.for %{{.+}} = %{{.+}} to %c16 step %c8
// CHECK: %[[G:.+]] = vector.transfer_read {{.+}} : tensor<5x16xf64>, vector<8xf64>
// CHECK: %[[S:.+]] = tensor.extract %{{.+}}[%{{.+}}] : tensor<5xf64>
// CHECK: %[[SV:.+]] = vector.broadcast %[[S]] : f64 to vector<8xf64>
// CHECK-NOT: arith.select
// CHECK: %[[CAT:.+]] = vector.shuffle %[[G]], %[[SV]] [0, 1, {{.+}}, 15] : vector<8xf64>, vector<8xf64>
// CHECK: %[[ALL:.+]] = vector.shuffle %[[CAT]], %[[SV]] [0, 1, {{.+}}, 23] : vector<16xf64>, vector<8xf64>
// CHECK: vector.shuffle %[[ALL]], %[[ALL]] [0, 8, 16, 1, 9, 17, {{.+}}, 7, 15, 23] : vector<24xf64>, vector<24xf64>
// CHECK: vector.transfer_write %{{.+}} : vector<24xf64>, tensor<5x48xf64>
// CHECK-NOT: linalg.generic
func.func @three_phases(%dy: tensor<5x16xf64>, %scale: tensor<5xf64>, %out: tensor<5x16x3xf64>) -> tensor<5x16x3xf64> {
  %c0 = arith.constant 0 : index
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%dy, %scale : tensor<5x16xf64>, tensor<5xf64>) outs(%out : tensor<5x16x3xf64>) {
  ^bb0(%g: f64, %s: f64, %o: f64):
    %pw = linalg.index 2 : index
    %first = arith.cmpi eq, %pw, %c0 : index
    %v = arith.select %first, %g, %s : f64
    linalg.yield %v : f64
  } -> tensor<5x16x3xf64>
  return %r : tensor<5x16x3xf64>
}

// -----

// A dynamic batch: the outer loop runs to the output's dim.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK-SAME: (%{{.+}}: tensor<?x32xf32>, %[[OUT:.+]]: tensor<?x32x2xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[OUT]], %c0 : tensor<?x32x2xf32>
// CHECK: scf.for %{{.+}} = %c0 to %[[N]] step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c32 step %c16
// CHECK: vector.transfer_write {{.+}} : vector<32xf32>, tensor<?x64xf32>
// CHECK-NOT: linalg.generic
func.func @dynamic_batch(%x: tensor<?x32xf32>, %out: tensor<?x32x2xf32>) -> tensor<?x32x2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<?x32xf32>) outs(%out : tensor<?x32x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %pw = linalg.index 2 : index
    %i = arith.index_cast %pw : index to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %a, %f : f32
    linalg.yield %v : f32
  } -> tensor<?x32x2xf32>
  return %r : tensor<?x32x2xf32>
}

// -----

// Not this form: an input walks the innermost loop (then it is a row tile
// of at least V columns, or nothing), there are more than 8 phases, or the
// output's column dim is dynamic (even where an input's is static).
// CHECK-LABEL: func.func @input_walks_phases
// CHECK-NOT: vector.shuffle
// CHECK: linalg.generic
// CHECK-LABEL: func.func @many_phases
// CHECK-NOT: vector.shuffle
// CHECK: linalg.generic
// CHECK-LABEL: func.func @dynamic_columns
// CHECK-NOT: vector.shuffle
// CHECK: linalg.generic
func.func @input_walks_phases(%x: tensor<4x35x2xf32>, %out: tensor<4x35x2xf32>) -> tensor<4x35x2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x35x2xf32>) outs(%out : tensor<4x35x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %a : f32
    linalg.yield %v : f32
  } -> tensor<4x35x2xf32>
  return %r : tensor<4x35x2xf32>
}
func.func @many_phases(%x: tensor<4x35xf32>, %out: tensor<4x35x9xf32>) -> tensor<4x35x9xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x35xf32>) outs(%out : tensor<4x35x9xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x35x9xf32>
  return %r : tensor<4x35x9xf32>
}
func.func @dynamic_columns(%x: tensor<4x35xf32>, %out: tensor<4x?x2xf32>) -> tensor<4x?x2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x35xf32>) outs(%out : tensor<4x?x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x?x2xf32>
  return %r : tensor<4x?x2xf32>
}
