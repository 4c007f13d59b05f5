// RUN: rlx-opt %s --split-input-file --rlx-to-linalg --rlx-fuse-rows='row-tile-elements=4096' --cse --canonicalize | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-to-linalg --rlx-fuse-rows='reassociate-reductions=0 row-tile-elements=4096' | FileCheck %s --check-prefix=NOREASSOC
// RUN: rlx-opt %s --split-input-file --rlx-to-linalg --rlx-fuse-rows='max-fused-ops=3' | FileCheck %s --check-prefix=BOUND
// RUN: rlx-opt %s --split-input-file --rlx-to-linalg --rlx-fuse-rows='column-partials=1 row-tile-elements=4096' --cse --canonicalize | FileCheck %s --check-prefix=ONESUM
// RUN: rlx-opt %s --split-input-file --rlx-to-linalg --rlx-fuse-rows='yield-shared=0 row-tile-elements=4096' --cse --canonicalize | FileCheck %s --check-prefix=WHOLE

// layer_norm_backward_input: one scf.forall over blocks of 4 rows (4 x 1024
// = row-tile-elements) holding both statistic passes (sum(x), then the
// three fused sums), the per-row generic and the elementwise tail, all on
// [4, 1024] / [4] tiles; the reduction combiners are reassoc. Nothing runs
// over the whole tensor outside the loop.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%[[I:.+]]) = (0) to (4096) step (4)
// CHECK: %[[X:.+]] = tensor.extract_slice %arg0[%[[I]], 0] [4, 1024] [1, 1]
// CHECK: %[[DY:.+]] = tensor.extract_slice %arg2[%[[I]], 0] [4, 1024] [1, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]] : tensor<4x1024xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]], %arg1, %[[DY]], %{{.+}} : tensor<4x1024xf32>, tensor<1024xf32>, tensor<4x1024xf32>, tensor<4xf32>)
// CHECK-COUNT-3: fastmath<reassoc>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: } -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[DX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[X]], %arg1, %[[DY]], {{.*}}) outs(%{{.+}} : tensor<4x1024xf32>)
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[DX]]
// CHECK-NOT: linalg.generic
// CHECK: return
// With max-fused-ops=3 the root, which has 4 linalg producers, is not
// fused (the bound that keeps higher-order gradients compiling quickly).
// BOUND-LABEL: func.func @layer_norm
// BOUND-NOT: scf.forall
// BOUND: return
// NOREASSOC-LABEL: func.func @layer_norm
// NOREASSOC: scf.forall
// NOREASSOC-NOT: fastmath
// NOREASSOC: return
func.func @layer_norm(%x: tensor<4096x1024xf32>, %g: tensor<1024xf32>, %dy: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %r = rlx.layer_norm_backward_input %x, %g, %dy {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<4096x1024xf32>, tensor<1024xf32>, tensor<4096x1024xf32> -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}

// -----

// group_norm_backward_input: the statistics are per (n, g) of the
// [N, G, C/G, H*W] view: one (n, g) group (2 x 3136 elements, more than
// row-tile-elements) per iteration.
// CHECK-LABEL: func.func @group_norm
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (8, 32)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: } -> tensor<1x1xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: } -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: } -> tensor<1x1x2x3136xf32>
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @group_norm(%x: tensor<8x64x56x56xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %dy: tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32> {
  %r = rlx.group_norm_backward_input %x, %g, %b, %dy {num_groups = 32 : i64, eps = 1.0e-05 : f32} : tensor<8x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<8x64x56x56xf32> -> tensor<8x64x56x56xf32>
  return %r : tensor<8x64x56x56xf32>
}

// -----

// softmax_cross_entropy_backward: max and sum-of-exp per row, then dlogits,
// in one loop over blocks of 4 rows.
// CHECK-LABEL: func.func @cross_entropy
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%{{.+}}) = (0) to (4096) step (4)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: } -> tensor<4x1000xf32>
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @cross_entropy(%l: tensor<4096x1000xf32>, %t: tensor<4096xi64>, %d: tensor<4096xf32>) -> tensor<4096x1000xf32> {
  %r = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<4096x1000xf32>, tensor<4096xi64>, tensor<4096xf32> -> tensor<4096x1000xf32>
  return %r : tensor<4096x1000xf32>
}

// -----

// Small groups (fewer than 2^20 elements) are an scf.for: no fork/join.
// Rows of 16 share a tile of 256 rows (4096 elements).
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.+}} = %c0 to %c512 step %c256
// CHECK-NOT: scf.forall
// CHECK: return
func.func @small(%x: tensor<512x16xf32>, %g: tensor<16xf32>, %dy: tensor<512x16xf32>) -> tensor<512x16xf32> {
  %r = rlx.layer_norm_backward_input %x, %g, %dy {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<512x16xf32>, tensor<16xf32>, tensor<512x16xf32> -> tensor<512x16xf32>
  return %r : tensor<512x16xf32>
}

// -----

// A dynamic row count: one row per tile, threads.
// CHECK-LABEL: func.func @dynamic
// CHECK: scf.forall (%{{.+}}) in (%{{.+}})
// CHECK: tensor<1x16xf32>
// CHECK: return
func.func @dynamic(%x: tensor<?x16xf32>, %g: tensor<16xf32>, %dy: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = rlx.layer_norm_backward_input %x, %g, %dy {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// layer_norm_backward_gamma, a column sum: the rows are split into 8
// partial sums on an scf.forall (column-partials, fixed by the shape), each
// an scf.for over blocks of 4 rows that carries the sums and computes the
// block's statistics (mean, then variance, then the per-row generic) right
// before adding the block's rows in: x is read from memory once. The
// partial sums are then added in order by one linalg.reduce.
// CHECK-LABEL: func.func @layer_norm_gamma
// CHECK-NOT: linalg.generic
// CHECK: %[[PARTS:.+]] = tensor.empty() : tensor<8x1024xf32>
// CHECK: %[[ALL:.+]] = scf.forall (%[[P:.+]]) in (8) shared_outs(%[[OUT:.+]] = %[[PARTS]])
// CHECK: %[[ROW:.+]] = tensor.extract_slice %[[OUT]][%[[P]], 0] [1, 1024] [1, 1]
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[ROW]] : tensor<1024xf32>)
// CHECK: %[[LO:.+]] = arith.muli %[[P]], %c512
// CHECK: %[[HI:.+]] = arith.addi %[[LO]], %c512
// CHECK: %[[SUM:.+]] = scf.for %[[I:.+]] = %[[LO]] to %[[HI]] step %c4 iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (tensor<1024xf32>)
// CHECK: %[[X:.+]] = tensor.extract_slice %arg0[%[[I]], 0] [4, 1024] [1, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]] : tensor<4x1024xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]], %{{.+}} : tensor<4x1024xf32>, tensor<4xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: %[[NEXT:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} outs(%[[ACC]] : tensor<1024xf32>)
// CHECK: scf.yield %[[NEXT]]
// CHECK: tensor.parallel_insert_slice %[[SUM]] into %[[OUT]][%[[P]], 0] [1, 1024] [1, 1]
// CHECK: linalg.reduce ins(%[[ALL]] : tensor<8x1024xf32>) outs(%{{.+}} : tensor<1024xf32>) dimensions = [0]
// CHECK-NOT: linalg.generic
// CHECK: return
// With column-partials=1: one scf.for over all the row blocks.
// ONESUM-LABEL: func.func @layer_norm_gamma
// ONESUM-NOT: scf.forall
// ONESUM: scf.for %{{.+}} = %c0 to %c4096 step %c4 iter_args
// ONESUM-NOT: linalg.reduce
// ONESUM: return
func.func @layer_norm_gamma(%x: tensor<4096x1024xf32>, %dy: tensor<4096x1024xf32>) -> tensor<1024xf32> {
  %r = rlx.layer_norm_backward_gamma %x, %dy {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<4096x1024xf32>, tensor<4096x1024xf32> -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// A producer that is also read outside linalg ops (here returned; in
// attention's dv, by the micro-kernel of the E^T (dy / l) product) is
// computed once: with yield-shared, in the row loop of the tail, one row
// per iteration (max, exp, the row sum and the divide on the same row), its
// rows yielded from the loop for the other reader; with yield-shared=0,
// whole in its own row loop, which the row sums then read.
// CHECK-LABEL: func.func @shared_exp
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} step %c1 {{.*}} -> (tensor<64x64xf32>, tensor<64x512xf32>)
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK-NOT: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: scf.yield
// CHECK-NOT: math.exp
// CHECK: return %[[LOOP]]#1, %[[LOOP]]#0
// WHOLE-LABEL: func.func @shared_exp
// WHOLE: %[[E:.*]] = scf.for
// WHOLE: arith.maxnumf
// WHOLE: math.exp
// WHOLE: scf.yield
// WHOLE-NOT: math.exp
// WHOLE: arith.addf
// WHOLE: arith.divf
// WHOLE-NOT: math.exp
// WHOLE: return %[[E]]
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @shared_exp(%x: tensor<64x512xf32>, %dy: tensor<64x64xf32>) -> (tensor<64x512xf32>, tensor<64x64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x512xf32>) outs(%minit : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maxnumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x512xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<64x512xf32>, tensor<64xf32>) outs(%e1 : tensor<64x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<64x512xf32>) outs(%sinit : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %dyl = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%dy, %s : tensor<64x64xf32>, tensor<64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %e, %dyl : tensor<64x512xf32>, tensor<64x64xf32>
}
