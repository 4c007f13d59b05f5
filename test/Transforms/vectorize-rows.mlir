// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512' | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512 parallel-rows=0' \
// RUN:   | FileCheck %s --check-prefix=SEQ
// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512 reduction-vectors=1' \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512 column-rows=0' \
// RUN:   | FileCheck %s --check-prefix=ROWS1
// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512 fast-maxima=0' \
// RUN:   | FileCheck %s --check-prefix=MAXNUM
// RUN: rlx-opt %s --split-input-file --rlx-vectorize-rows='vector-bits=512' \
// RUN:   --one-shot-bufferize='bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map' \
// RUN:   | FileCheck %s --check-prefix=BUF

// An elementwise generic with a dynamic batch dim and an odd row length
// (1000 = 62 x 16 + 8): a parallel loop over the rows (a dynamic batch is
// assumed large; sequential with parallel-rows=0), static 16-wide vector
// tiles, and the peeled remainder (static here: 8 wide).
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.forall
// SEQ-LABEL: func.func @elementwise
// SEQ-NOT: scf.forall
// SEQ: scf.for
// CHECK: scf.for %{{.+}} = %{{.+}} to %c992 step %c16
// CHECK: vector.transfer_read {{.*}} vector<16xf32>
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK: vector.transfer_write {{.*}} vector<16xf32>
// CHECK: arith.mulf {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @elementwise(%x: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x1000xf32>
  %e = tensor.empty(%d) : tensor<?x1000xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x1000xf32>) outs(%e : tensor<?x1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<?x1000xf32>
  return %0 : tensor<?x1000xf32>
}

// -----

// A row sum over a dynamic row length n is split at (n floordiv 8) * 8: the
// part before is 8-lane partial sums carried in registers (a vector
// iter_arg), reduced once per row; the rest (< 8 elements) is a scalar
// generic that continues the sum. (Not split, the dynamic remainder would
// update part of the partial sums inside the tile loop, a buffer per row.)
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.forall
// CHECK: scf.for {{.*}} -> (vector<8xf64>)
// CHECK: vector.transfer_read {{.*}} : tensor<1x8xf64>, vector<8xf64>
// CHECK: arith.addf {{.*}} : vector<8xf64>
// CHECK: vector.reduction <add>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<1x?xf64>)
// CHECK: return
func.func @row_sum(%x: tensor<4x?xf64>) -> tensor<4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x?xf64>) outs(%f : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %o, %a : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Two row sums of one generic whose inits share a fill (as in the layer
// norm gradient): each gets its own fill (a shared one would be copied), and
// the tile loop carries both partial sums as vector iter_args, with no
// tensor (no buffer) inside it or per row. Each sum is 2 vectors of 16
// (reduction-vectors 4 over 2 sums: 4 independent add chains).
// CHECK-LABEL: func.func @two_sums
// CHECK-COUNT-2: linalg.fill
// CHECK: scf.for
// CHECK-NOT: tensor.empty
// CHECK: scf.for {{.*}} step %c32 iter_args(%[[A:.+]] = %{{.+}}, %[[B:.+]] = %{{.+}}) -> (vector<32xf32>, vector<32xf32>)
// CHECK-NOT: tensor.empty
// CHECK-DAG: arith.addf %[[A]], {{.*}} : vector<32xf32>
// CHECK-DAG: arith.addf %[[B]], {{.*}} : vector<32xf32>
// CHECK-NOT: tensor.empty
// CHECK: scf.yield {{.*}} : vector<32xf32>, vector<32xf32>
// CHECK-NOT: tensor.empty
// CHECK-COUNT-2: vector.reduction <add>, {{.*}} : vector<32xf32> into f32
// CHECK-NOT: tensor.empty
// CHECK: return
// ONE-LABEL: func.func @two_sums
// ONE: scf.for {{.*}} step %c16 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>)
// BUF-LABEL: func.func @two_sums
// BUF-COUNT-2: memref.alloc()
// BUF-NOT: memref.alloc
// BUF: return
func.func @two_sums(%x: tensor<8x256xf32>, %y: tensor<8x256xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %0:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x, %y : tensor<8x256xf32>, tensor<8x256xf32>) outs(%f, %f : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %p: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    %t = arith.addf %p, %a : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A static row length that is not a multiple of the tile: the remainder is
// split off in the same row iteration and continues the sum after the
// horizontal reduction (no partial update of the partial sums, which would
// need a tensor per row). One sum: 4 vectors of 16 partial sums (1000 =
// 15 x 64 + 40); with reduction-vectors=1, one (1000 = 62 x 16 + 8). Both
// horizontal reductions are `reassoc` (LLVM reduces them as trees).
// CHECK-LABEL: func.func @row_sum_remainder
// CHECK: scf.for
// CHECK-NOT: tensor.empty
// CHECK: scf.for {{.*}} to %c960 step %c64 iter_args({{.*}}) -> (vector<64xf32>)
// CHECK: %[[MAIN:.+]] = vector.reduction <add>, {{.*}} fastmath<reassoc> : vector<64xf32> into f32
// CHECK-NOT: tensor.empty
// CHECK: vector.reduction <add>, %{{.+}}, %[[MAIN]] fastmath<reassoc> : vector<40xf32> into f32
// CHECK: return
// ONE-LABEL: func.func @row_sum_remainder
// ONE: scf.for {{.*}} to %c992 step %c16 iter_args({{.*}}) -> (vector<16xf32>)
// ONE: %[[MAIN:.+]] = vector.reduction <add>, {{.*}} fastmath<reassoc> : vector<16xf32> into f32
// ONE: vector.reduction <add>, %{{.+}}, %[[MAIN]] fastmath<reassoc> : vector<8xf32> into f32
// ONE: return
func.func @row_sum_remainder(%x: tensor<4x1000xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x1000xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A transposed read (the innermost loop is not the operand's last index)
// is left alone.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: vector.
// CHECK: linalg.generic
func.func @transposed(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// A row sum over 512 x 256 (at least parallel-min-elements iterations, rows
// parallel): one scf.forall over the rows, each row's 64 partial sums in
// registers across its tile loop. The rows are independent, so a result
// does not depend on the thread count.
// CHECK-LABEL: func.func @row_sum_parallel
// CHECK: scf.forall
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<64xf32>)
// CHECK: vector.reduction <add>, {{.*}} : vector<64xf32> into f32
// CHECK: tensor.parallel_insert_slice
// SEQ-LABEL: func.func @row_sum_parallel
// SEQ-NOT: scf.forall
// SEQ: return
func.func @row_sum_parallel(%x: tensor<512x256xf32>) -> tensor<512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<512x256xf32>) outs(%f : tensor<512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<512xf32>
  return %0 : tensor<512xf32>
}

// -----

// A column sum (the gamma gradient of a norm: rows reduced, columns kept)
// is vectorized along its columns, but its loop over the rows reduces, so it
// stays sequential here (rlx-fuse-rows splits a large one into a fixed
// number of partial sums; this pass never splits by the thread count).
// Its tiles are 4 rows of 16 columns: the 4 rows are added to the
// accumulator in registers, in row order, and it is stored once (with
// column-rows=0, once per row).
// CHECK-LABEL: func.func @column_sum
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.+}} = %c0 to %c512 step %c4
// CHECK: scf.for %{{.+}} = %c0 to %c256 step %c16
// CHECK: %[[T:.+]] = vector.transfer_read {{.*}} : tensor<4x16xf32>, vector<4x16xf32>
// CHECK: %[[ACC:.+]] = vector.transfer_read {{.*}} : tensor<16xf32>, vector<16xf32>
// CHECK: %[[R0:.+]] = vector.extract %[[T]][0]
// CHECK: %[[S0:.+]] = arith.addf %[[R0]], %[[ACC]] : vector<16xf32>
// CHECK: %[[R1:.+]] = vector.extract %[[T]][1]
// CHECK: %[[S1:.+]] = arith.addf %[[R1]], %[[S0]] : vector<16xf32>
// CHECK: %[[R2:.+]] = vector.extract %[[T]][2]
// CHECK: %[[S2:.+]] = arith.addf %[[R2]], %[[S1]] : vector<16xf32>
// CHECK: %[[R3:.+]] = vector.extract %[[T]][3]
// CHECK: %[[S3:.+]] = arith.addf %[[R3]], %[[S2]] : vector<16xf32>
// CHECK-NEXT: vector.transfer_write %[[S3]]
// CHECK-NOT: arith.addf
// CHECK: return
// ROWS1-LABEL: func.func @column_sum
// ROWS1: scf.for %{{.+}} = %c0 to %c512 step %c1
// ROWS1: vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<16xf32>
// ROWS1-COUNT-1: arith.addf {{.*}} : vector<16xf32>
// ROWS1-NOT: arith.addf
// ROWS1: return
func.func @column_sum(%x: tensor<512x256xf32>) -> tensor<256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<512x256xf32>) outs(%f : tensor<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// A column sum whose rows are not whole vectors (33 = 2 x 16 + 1) keeps
// tiles of one row: the 4-row form of its 1-wide remainder column
// (vector<4x1>) sent the vector lowering patterns into an endless loop.
// CHECK-LABEL: func.func @column_sum_odd
// CHECK: scf.for %{{.+}} = %c0 to %c8 step %c1
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: return
func.func @column_sum_odd(%x: tensor<8x33xf32>) -> tensor<33xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<33xf32>) -> tensor<33xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<8x33xf32>) outs(%f : tensor<33xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<33xf32>
  return %0 : tensor<33xf32>
}

// -----

// A one-hot subtraction (cross-entropy's tail): linalg.index of the
// vectorized dim becomes a vector.step, and the per-row i64 label is one
// broadcast scalar per tile, so the f32 tiles keep 16 lanes (not the 8 of a
// 64-bit element).
// CHECK-LABEL: func.func @one_hot
// CHECK: vector.step : vector<16xindex>
// CHECK: arith.cmpi eq, %{{.+}}, %{{.+}} : vector<16xindex>
// CHECK: arith.subf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK-NOT: vector<8xf32>
func.func @one_hot(%p: tensor<64x1024xf32>, %label: tensor<64xi64>) -> tensor<64x1024xf32> {
  %init = tensor.empty() : tensor<64x1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%p, %label : tensor<64x1024xf32>, tensor<64xi64>) outs(%init : tensor<64x1024xf32>) {
  ^bb0(%x: f32, %l: i64, %out: f32):
    %j = linalg.index 1 : index
    %li = arith.index_cast %l : i64 to index
    %hit = arith.cmpi eq, %j, %li : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %t = arith.select %hit, %one, %zero : f32
    %d = arith.subf %x, %t : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}

// -----

// The index of an outer dim (a triangular mask, cumsum's matrix) leaves the
// generic to LLVM: it sent the vector lowering patterns into an endless loop.
// CHECK-LABEL: func.func @triangle
// CHECK: linalg.generic
// CHECK: linalg.index 0
func.func @triangle() -> tensor<32x32xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<32x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%init : tensor<32x32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %below = arith.cmpi uge, %i, %j : index
    %v = arith.select %below, %one, %zero : f32
    linalg.yield %v : f32
  } -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// A softmax's row maximum over a dynamic row length (attention's causal
// blocks), from a -inf fill: the partial maxima start at -inf (not
// maxnumf's neutral NaN), so they are never NaN and each step is a compare
// and select (vmaxps); the horizontal maximum is a tree of half-width
// maxnumf (16 -> 8 -> 4 -> 2 -> 1), then the scalar remainder. With
// fast-maxima=0: the NaN start, maxnumf in the loop, one vector.reduction.
// CHECK-LABEL: func.func @row_max
// CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<16xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[NINF]]) -> (vector<16xf32>)
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[X:.*]], %[[ACC]] : vector<16xf32>
// CHECK: arith.select %[[GT]], %[[X]], %[[ACC]] : vector<16xi1>, vector<16xf32>
// CHECK-NOT: vector.reduction
// CHECK: arith.maxnumf {{.*}} : vector<8xf32>
// CHECK: arith.maxnumf {{.*}} : vector<4xf32>
// CHECK: arith.maxnumf {{.*}} : vector<2xf32>
// CHECK: arith.maxnumf {{.*}} : vector<1xf32>
// CHECK: linalg.generic
// CHECK: arith.maxnumf {{.*}} : f32
// MAXNUM-LABEL: func.func @row_max
// MAXNUM: scf.for {{.*}} -> (vector<16xf32>)
// MAXNUM-NOT: arith.select
// MAXNUM: arith.maxnumf {{.*}} : vector<16xf32>
// MAXNUM: vector.reduction <maxnumf>
func.func @row_max(%x: tensor<4x?xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x?xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maxnumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A row maximum whose init is not known to be a number (an argument) keeps
// maxnumf's NaN start and maxnumf in the loop: a NaN init would otherwise
// stick, x > NaN being false.
// CHECK-LABEL: func.func @row_max_any_init
// CHECK: scf.for {{.*}} -> (vector<16xf32>)
// CHECK-NOT: arith.select
// CHECK: arith.maxnumf {{.*}} : vector<16xf32>
// CHECK: arith.maxnumf {{.*}} : vector<8xf32>
func.func @row_max_any_init(%x: tensor<4x?xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x?xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maxnumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
