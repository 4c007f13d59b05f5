// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --rlx-optimize-contractions="vector-bits=512 threads=2" | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg --rlx-optimize-contractions="vector-bits=512 threads=2 column-pieces=0" | FileCheck %s --check-prefix=WHOLE
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=conv-channels-last=0 --rlx-lower-to-linalg=forward-conv-channels-last=0 --rlx-optimize-contractions="vector-bits=512 threads=2" | FileCheck %s --check-prefix=ROWS
// RUN: rlx-opt %s --split-input-file --rlx-optimize-contractions="vector-bits=512 threads=2 reuse-packed-b=0" | FileCheck %s --check-prefix=ONCE

// A matmul: scf.forall over 128x256 blocks of C, KC = whole K (256), 8x32
// register tiles (loops n, m), the 8 C rows in vector registers over the k
// loop, whose body is one row load of B, 8 broadcasts of A and 8 FMAs.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall ({{.*}}) = (0, 0) to (512, 512) step (128, 256)
// CHECK: scf.for %{{.+}} = %c0 to %c256 step %c32
// CHECK: scf.for %{{.+}} = %c0 to %c128 step %c8
// CHECK-COUNT-8: vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<32xf32>
// CHECK: scf.for {{.*}} -> (vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>)
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<256x32xf32>, vector<32xf32>
// CHECK-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: tensor.extract
// CHECK: scf.yield
// CHECK-COUNT-8: vector.transfer_write
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<512x256xf32>, %b: tensor<256x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}

// -----

// A long reduction is blocked (KC = 256) and both blocks are copied into
// buffers with padded rows, allocated once per C block.
// CHECK-LABEL: func.func @long_k
// CHECK: scf.forall
// CHECK-DAG: tensor.empty() : tensor<128x272xf32>
// CHECK-DAG: tensor.empty() : tensor<256x272xf32>
// CHECK: scf.for %{{.+}} = %c0 to %c1024 step %c256
// CHECK: linalg.copy
// CHECK: linalg.copy
// CHECK: vector.fma
// CHECK-NOT: linalg.matmul
func.func @long_k(%a: tensor<256x1024xf32>, %b: tensor<1024x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x1024xf32>, tensor<1024x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// C starts as a fill of a constant and the reduction has several KC
// blocks: the micro-kernels of the first block start from the constant (an
// scf.if on the KC loop's index; the C rows after it), so the fill, a pass
// over C, is gone.
// CHECK-LABEL: func.func @filled_long_k
// CHECK-DAG: %[[INIT:.+]] = arith.constant dense<1.500000e+00> : vector<32xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[K:.+]] = %c0 to %c1024 step %c256
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[K]], %c0
// CHECK: scf.if %[[FIRST]]
// CHECK-NEXT: scf.yield %[[INIT]], %[[INIT]], %[[INIT]], %[[INIT]], %[[INIT]], %[[INIT]], %[[INIT]], %[[INIT]] :
// CHECK-NEXT: } else {
// CHECK-COUNT-8: vector.transfer_read
// CHECK: vector.fma
// CHECK-NOT: linalg.fill
func.func @filled_long_k(%a: tensor<256x1024xf32>, %b: tensor<1024x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x1024xf32>, tensor<1024x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// Goto's loop order (reuse-packed-b): the blocks of C grow along m (here
// to all 1024 rows, 1 MiB of C per block) while two blocks remain for the
// threads; each packs a 256x256 block of B once per KC block and runs its
// 128-row blocks of A (packed in the inner loop) against it. With
// reuse-packed-b=0 the blocks are 128 rows, each packing B again.
// CHECK-LABEL: func.func @reuse_packed_b
// CHECK: scf.forall (%{{.+}}) = (0) to (512) step (256)
// CHECK: scf.for %{{.+}} = %c0 to %c1024 step %c256
// CHECK: linalg.copy ins(%{{.+}} : tensor<256x256xf32>)
// CHECK: scf.for %{{.+}} = %c0 to %c1024 step %c128
// CHECK: linalg.copy ins(%{{.+}} : tensor<128x256xf32>)
// CHECK: vector.fma
// ONCE-LABEL: func.func @reuse_packed_b
// ONCE: scf.forall ({{.*}}) = (0, 0) to (1024, 512) step (128, 256)
// ONCE: scf.for %{{.+}} = %c0 to %c1024 step %c256
// ONCE-NOT: scf.for
// ONCE: linalg.copy ins(%{{.+}} : tensor<256x256xf32>)
// ONCE-NOT: scf.for
// ONCE: linalg.copy ins(%{{.+}} : tensor<128x256xf32>)
// ONCE-NEXT: scf.for %{{.+}} = %c0 to %c256 step %c32
func.func @reuse_packed_b(%a: tensor<1024x1024xf32>, %b: tensor<1024x512xf32>, %c: tensor<1024x512xf32>) -> tensor<1024x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x512xf32>) outs(%c : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %r : tensor<1024x512xf32>
}

// -----

// Sizes that no register tile divides (and too small for threads: scf.for
// blocks): blocks that divide them (50 of 100)
// keep every tile static; the peeled edge tiles are 2 rows and 6 columns.
// A 6-wide row is two overlapping power-of-two pieces, columns [0, 4) and
// [2, 6) (no vector<6xf32>, which LLVM would widen into shuffles).
// CHECK-LABEL: func.func @odd
// CHECK: scf.for %{{.+}} = %c0 to %c100 step %c50
// CHECK-NOT: tensor<?x
// CHECK-DAG: vector<32xf32>
// CHECK-DAG: vector.transfer_read %{{.+}}[%c0{{.*}}, %c2], %{{.+}} {in_bounds = [true]} : tensor<2x6xf32>, vector<4xf32>
// CHECK-NOT: vector<6xf32>
// With column-pieces=0 the edge rows are one vector<6xf32> each.
// WHOLE-LABEL: func.func @odd
// WHOLE: vector.fma {{.*}} : vector<6xf32>
// CHECK-NOT: tensor<?x
// CHECK-NOT: linalg.matmul
func.func @odd(%a: tensor<100x37xf32>, %b: tensor<37x70xf32>, %c: tensor<100x70xf32>) -> tensor<100x70xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<100x37xf32>, tensor<37x70xf32>) outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %r : tensor<100x70xf32>
}

// -----

// batch_matmul, f64, dynamic batch: one thread block per batch; NR = 16
// (two 8-lane vectors), and the 8-column edge tile is one vector.
// CHECK-LABEL: func.func @batch_dyn
// CHECK: %[[N:.+]] = tensor.dim
// CHECK: scf.forall (%{{.+}}) in (%[[N]])
// CHECK: scf.for {{.*}} -> (vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>)
// CHECK: vector.fma {{.*}} : vector<16xf64>
// CHECK: scf.for {{.*}} -> (vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>)
// CHECK: vector.fma {{.*}} : vector<8xf64>
// CHECK-NOT: linalg.batch_matmul
func.func @batch_dyn(%a: tensor<?x64x48xf64>, %b: tensor<?x48x40xf64>, %c: tensor<?x64x40xf64>) -> tensor<?x64x40xf64> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x64x48xf64>, tensor<?x48x40xf64>) outs(%c : tensor<?x64x40xf64>) -> tensor<?x64x40xf64>
  return %r : tensor<?x64x40xf64>
}

// -----

// linalg.contract q k^T (attention scores): k is indexed by n (j) but not in
// its last dim, so it is first transposed to [b, h, d, j]; then the kernel
// loads rows of it.
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
// The copy of k is cut into 16x16 squares, each a transposed vector read.
// CHECK-LABEL: func.func @qkt
// CHECK: %[[KT:.+]] = scf.for {{.*}} -> (tensor<2x4x32x96xf32>)
// CHECK: vector.transfer_read {{.*}} {permutation_map = #{{.*}}} : tensor<1x1x16x16xf32>, vector<1x1x16x16xf32>
// CHECK-NOT: linalg.transpose
// CHECK: scf.forall ({{.*}}) in (2, 4)
// CHECK: tensor.extract_slice %[[KT]]
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x32x32xf32>, vector<32xf32>
// CHECK: vector.fma
// CHECK-NOT: linalg.contract
func.func @qkt(%q: tensor<2x4x64x32xf32>, %k: tensor<2x4x96x32xf32>, %c: tensor<2x4x64x96xf32>) -> tensor<2x4x64x96xf32> {
  %r = linalg.contract indexing_maps = [#q, #k, #s] ins(%q, %k : tensor<2x4x64x32xf32>, tensor<2x4x96x32xf32>) outs(%c : tensor<2x4x64x96xf32>) -> tensor<2x4x64x96xf32>
  return %r : tensor<2x4x64x96xf32>
}

// -----

// q k^T per block of query rows (attention-blocks): each block reads the
// first n keys of the head, a slice of a tensor defined outside the loop, so
// the keys are transposed once before the loop and each block slices the
// transposed copy (not one transpose per block). The copy is vectorized in
// 16x16 squares there too: inside attention's loop over heads, LLVM had
// turned its scalar loops into scatters.
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
// The scores start as a fill of zero, with the whole reduction (d) in one
// block: the 8x32 tiles start their accumulators at zero instead of
// zero-filling C and reading it back, and only the dynamic edge tiles (the
// last keys) fill their own part of C.
// CHECK-LABEL: func.func @qkt_blocks
// CHECK: %[[Z:.+]] = arith.constant dense<0.000000e+00> : vector<32xf32>
// CHECK: %[[KT:.+]] = scf.for {{.*}} -> (tensor<1x1x64x512xf32>)
// CHECK: vector.transfer_read {{.*}} {permutation_map = #{{.*}}} : tensor<1x1x16x16xf32>, vector<1x1x16x16xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %c64
// CHECK-NOT: linalg.transpose
// CHECK: tensor.extract_slice %[[KT]][0, 0, 0, 0] [1, 1, 64, %{{.+}}] [1, 1, 1, 1] : tensor<1x1x64x512xf32> to tensor<1x1x64x?xf32>
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.fill
// CHECK: scf.for {{.*}} iter_args(%{{.+}} = %[[Z]], %{{.+}} = %[[Z]], %{{.+}} = %[[Z]], %{{.+}} = %[[Z]], %{{.+}} = %[[Z]], %{{.+}} = %[[Z]], %{{.+}} = %[[Z]], %{{.+}} = %[[Z]])
// CHECK: vector.fma
// CHECK: linalg.fill {{.*}} -> tensor<1x1x8x?xf32>
// CHECK-NEXT: linalg.generic
func.func @qkt_blocks(%q: tensor<1x1x512x64xf32>, %k: tensor<1x1x512x64xf32>, %out: tensor<1x1x512xf32>) -> tensor<1x1x512xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c512 step %c64 iter_args(%acc = %out) -> (tensor<1x1x512xf32>) {
    %n = arith.addi %i, %c64 : index
    %qb = tensor.extract_slice %q[0, 0, %i, 0] [1, 1, 64, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x64x64xf32>
    %kb = tensor.extract_slice %k[0, 0, 0, 0] [1, 1, %n, 64] [1, 1, 1, 1] : tensor<1x1x512x64xf32> to tensor<1x1x?x64xf32>
    %e = tensor.empty(%n) : tensor<1x1x64x?xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x64x?xf32>) -> tensor<1x1x64x?xf32>
    %sb = linalg.contract indexing_maps = [#q, #k, #s] ins(%qb, %kb : tensor<1x1x64x64xf32>, tensor<1x1x?x64xf32>) outs(%f : tensor<1x1x64x?xf32>) -> tensor<1x1x64x?xf32>
    %s0 = tensor.extract_slice %sb[0, 0, 0, 0] [1, 1, 64, 1] [1, 1, 1, 1] : tensor<1x1x64x?xf32> to tensor<1x1x64xf32>
    %upd = tensor.insert_slice %s0 into %acc[0, 0, %i] [1, 1, 64] [1, 1, 1] : tensor<1x1x64xf32> into tensor<1x1x512xf32>
    scf.yield %upd : tensor<1x1x512xf32>
  }
  return %r : tensor<1x1x512xf32>
}

// -----

// A direct convolution (rlx.conv2d with forward-conv-direct; too small,
// 0.3 MFMA, for threads: scf.for blocks): C rows are
// output rows y[n, f, i, 0:12] (an edge tile of 12 columns), A elements are
// weights, B rows are input rows xp[n, c, i + a, b : b + 12], and the
// reduction (c, a, b) is a loop nest inside the register tile. A 12-wide
// row is two overlapping 8-wide pieces, columns [0, 8) and [4, 12): 16
// accumulators, two B loads and 16 FMAs per step.
// The whole reduction is one block, so C is never zero-filled and read
// back: the accumulators start as zero vectors.
// ROWS-LABEL: func.func @conv
// ROWS: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// ROWS-NOT: linalg.fill
// ROWS-NOT: scf.forall
// ROWS: scf.for {{.*}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]], {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// ROWS: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// ROWS: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// ROWS-NOT: scf.for
// ROWS: vector.transfer_read {{.*}} : tensor<1x8x3x14xf32>, vector<8xf32>
// ROWS: vector.transfer_read {{.*}} : tensor<1x8x3x14xf32>, vector<8xf32>
// ROWS-COUNT-16: vector.fma {{.*}} : vector<8xf32>
// ROWS: scf.yield
// ROWS-NOT: vector<12xf32>
// ROWS-NOT: linalg.generic
func.func @conv(%x: tensor<2x8x10x12xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x10x12xf32> {
  %y = rlx.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<2x8x10x12xf32>, tensor<16x8x3x3xf32> -> tensor<2x16x10x12xf32>
  return %y : tensor<2x16x10x12xf32>
}

// -----

// A depthwise convolution (one channel per group): each block of C is a
// whole (n, c) plane, so that the zero padding of the plane and the fill of
// its output are made inside the block, on its thread and in cache, instead
// of serial passes over the whole padded input and output before the loop.
// The padded plane is then a static tile, and its rows are shared by the
// output rows of the plane (an scf.for inside the block).
// CHECK-LABEL: func.func @depthwise
// ROWS-LABEL: func.func @depthwise
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%[[N:.*]], %[[C:.*]]) in (4, 32)
// CHECK: tensor.extract_slice %{{.*}}[%[[N]], %[[C]], 0, 0] [1, 1, 32, 32]
// CHECK: tensor.pad
// CHECK: } : tensor<1x1x32x32xf32> to tensor<1x1x34x34xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK: vector.fma
// CHECK: scf.forall.in_parallel
func.func @depthwise(%x: tensor<4x32x32x32xf32>, %w: tensor<32x1x3x3xf32>) -> tensor<4x32x32x32xf32> {
  %y = rlx.conv2d %x, %w {padding = array<i64: 1, 1>, groups = 32 : i64} : tensor<4x32x32x32xf32>, tensor<32x1x3x3xf32> -> tensor<4x32x32x32xf32>
  return %y : tensor<4x32x32x32xf32>
}

// -----

// A depthwise weight gradient: C holds per-column partial sums
// dw[c, kh, kw, ow], A is the padded x (its rows loaded as vectors), B is
// dy. Each block is one channel, every tap of it, so that the channel's
// planes of x are padded once, inside the block, and read by all nine taps
// from cache (blocks per tap read x three times).
// CHECK-LABEL: func.func @depthwise_weight
// CHECK-NOT: tensor.pad
// CHECK: scf.forall (%[[C:.*]]) in (128)
// CHECK: tensor.extract_slice %{{.*}}[0, %[[C]], 0, 0] [4, 1, 24, 24]
// CHECK: tensor.pad
// CHECK: } : tensor<4x1x24x24xf32> to tensor<4x1x26x26xf32>
// CHECK: vector.fma
// CHECK: scf.forall.in_parallel
func.func @depthwise_weight(%x: tensor<4x128x24x24xf32>, %dy: tensor<4x128x24x24xf32>) -> tensor<128x1x3x3xf32> {
  %w = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>, groups = 128 : i64} : tensor<4x128x24x24xf32>, tensor<4x128x24x24xf32> -> tensor<128x1x3x3xf32>
  return %w : tensor<128x1x3x3xf32>
}

// -----

// A dense convolution's padded input is not copied per block (all its
// channels, once per block of output channels): it is padded once before
// the blocks, and C is not zero-filled at all (the reduction is one block:
// the accumulators start at zero). That padding (over
// 2^18 elements) is an scf.forall over the (n, c) planes, each filling its
// plane and copying the input's plane into the interior.
// CHECK-LABEL: func.func @dense_padding
// CHECK-NOT: tensor.pad
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x32x50x50xf32>
// CHECK: %[[PADDED:.*]] = scf.forall (%[[N:.*]], %[[C:.*]]) in (4, 32) shared_outs(%[[OUT:.*]] = %[[EMPTY]])
// CHECK: %[[PLANE:.*]] = tensor.extract_slice %[[OUT]][%[[N]], %[[C]], 0, 0] [1, 1, 50, 50]
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} outs(%[[PLANE]]
// CHECK: %[[IN:.*]] = tensor.extract_slice %{{.*}}[%[[N]], %[[C]], 0, 0] [1, 1, 48, 48]
// CHECK: %[[DONE:.*]] = tensor.insert_slice %[[IN]] into %[[ZERO]][0, 0, 1, 1] [1, 1, 48, 48]
// CHECK: tensor.parallel_insert_slice %[[DONE]] into %[[OUT]][%[[N]], %[[C]], 0, 0] [1, 1, 50, 50]
// CHECK: scf.forall
// CHECK-NOT: tensor.pad
// CHECK: tensor.extract_slice %[[PADDED]]
// CHECK-NOT: linalg.fill
// CHECK: vector.fma
// CHECK: scf.forall.in_parallel
func.func @dense_padding(%x: tensor<4x32x48x48xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<4x32x48x48xf32> {
  %y = rlx.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<4x32x48x48xf32>, tensor<32x32x3x3xf32> -> tensor<4x32x48x48xf32>
  return %y : tensor<4x32x48x48xf32>
}

// -----

// 32 output channels, a multiple of 16: by default the convolution is
// computed channels-last, into [n, g, i, j, f] with rows of 32 channels
// loaded from the filter transposed to [g, c, a, b, f] and the input
// broadcast (8 output columns of a row per register tile), then transposed
// to NCHW in 16x16 squares.
// CHECK-LABEL: func.func @conv_channels
// CHECK: tensor.empty() : tensor<1x576x32xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x16x16xf32>, vector<1x16x16xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 8) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x1x8x32x32xf32>)
// CHECK: scf.for %{{.+}} = %c0 to %c32 step %c8
// CHECK: scf.for {{.*}} -> (vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<1x16x3x3x32xf32>, vector<32xf32>
// CHECK-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// CHECK: tensor.empty() : tensor<2x1x32x256xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x16x16xf32>, vector<1x1x16x16xf32>
// With channels-last off (ROWS),
// the KC block is sized by what a column strip of B occupies in L1: the
// rows of 3x3 taps overlap, so 64 channels are 64 x 3 rows of 34 elements
// (26 KiB), not 64 x 9 rows of 32. The whole reduction is then one block
// (no scf.for over channel blocks, C never reloaded), and the accumulators
// start at zero.
// ROWS-LABEL: func.func @conv_channels
// ROWS: %[[Z:.+]] = arith.constant dense<0.000000e+00> : vector<32xf32>
// ROWS: scf.forall
// ROWS-NOT: linalg.fill
// ROWS: scf.for %{{.+}} = %c0 to %c32 step %c8
// ROWS-NOT: scf.for
// ROWS: scf.for %{{.+}} = %c0 to %c64 step %c1 iter_args(%{{.+}} = %[[Z]],
// ROWS: scf.for %{{.+}} = %c0 to %c3 step %c1
// ROWS: scf.for %{{.+}} = %c0 to %c3 step %c1
// ROWS-COUNT-8: vector.fma {{.*}} : vector<32xf32>
func.func @conv_channels(%x: tensor<2x64x8x32xf32>, %w: tensor<32x64x3x3xf32>) -> tensor<2x32x8x32xf32> {
  %y = rlx.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<2x64x8x32xf32>, tensor<32x64x3x3xf32> -> tensor<2x32x8x32xf32>
  return %y : tensor<2x32x8x32xf32>
}

// -----

// A dense weight gradient: C (3 x 3 taps x 64 x 64, 147 KiB) stays in L2,
// but each of its blocks (per tap and 8 input channels) would stream the
// whole transposed dy (2 MiB). The reduction over (n, i) is blocked outside
// the register tiles instead: one image at a time, 16 rows at a time (256
// KiB of dy), in order, and every register tile of a thread's block reads
// that block of dy. Each of the two threads has one coarse block of C
// (all taps, 32 of the 64 input channels), filled once, and runs the
// reduction blocks in it: one fork and join per call.
// CHECK-LABEL: func.func @weight_grad_blocks
// CHECK: scf.forall ({{.*}}) = (0) to (64) step (32)
// CHECK: %[[C:.+]] = linalg.fill {{.*}} -> tensor<1x3x3x32x64xf32>
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args(%{{.+}} = %[[C]])
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c32
// CHECK: scf.for %{{.+}} = %c0 to %c32 step %c8
// CHECK: scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c16 step %c1 iter_args
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c1 iter_args
// CHECK-COUNT-8: vector.fma {{.*}} : vector<32xf32>
func.func @weight_grad_blocks(%x: tensor<2x64x64x64xf32>, %dy: tensor<2x64x64x64xf32>) -> tensor<64x64x3x3xf32> {
  %w = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<2x64x64x64xf32>, tensor<2x64x64x64xf32> -> tensor<64x64x3x3xf32>
  return %w : tensor<64x64x3x3xf32>
}

// -----

// A large transpose outside any loop (the copy of a weight gradient's dy
// into a layout with n last) is an scf.forall over its leading result dims;
// [n, c, h, w] -> [n, h, w, c] swaps the last two dims, so each (n, h) tile
// is cut into 16x16 squares that are vectorized (a transposed read of
// registers; the scalar loops gathered every element). 40 = 2*16 + 8: the
// edge squares are peeled and 8x16.
// CHECK-LABEL: func.func @transpose
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, 32)
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK: vector.transfer_read {{.*}} {permutation_map = #{{.*}}} : tensor<1x16x1x16xf32>, vector<1x1x16x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x1x16x16xf32>, tensor<1x1x16x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK: vector.transfer_read {{.*}} : tensor<1x16x1x8xf32>, vector<1x1x8x16xf32>
// CHECK-NOT: linalg.transpose
// CHECK: scf.forall.in_parallel
func.func @transpose(%x: tensor<4x64x32x40xf32>) -> tensor<4x32x40x64xf32> {
  %e = tensor.empty() : tensor<4x32x40x64xf32>
  %t = linalg.transpose ins(%x : tensor<4x64x32x40xf32>) outs(%e : tensor<4x32x40x64xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<4x32x40x64xf32>
}

// -----

// A transpose inside a loop over heads (one head's keys, [s, d] -> [d, s])
// is not split over threads, but it is cut into 16x16 vector squares.
// CHECK-LABEL: func.func @transpose_in_loop
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c16
// CHECK: vector.transfer_read {{.*}} {permutation_map = #{{.*}}} : tensor<1x16x16xf32>, vector<1x16x16xf32>
// CHECK-NOT: linalg.transpose
// CHECK: scf.forall.in_parallel
func.func @transpose_in_loop(%k: tensor<4x512x64xf32>) -> tensor<4x64x512xf32> {
  %e = tensor.empty() : tensor<4x64x512xf32>
  %r = scf.forall (%h) in (4) shared_outs(%o = %e) -> (tensor<4x64x512xf32>) {
    %s = tensor.extract_slice %k[%h, 0, 0] [1, 512, 64] [1, 1, 1] : tensor<4x512x64xf32> to tensor<1x512x64xf32>
    %i = tensor.empty() : tensor<1x64x512xf32>
    %t = linalg.transpose ins(%s : tensor<1x512x64xf32>) outs(%i : tensor<1x64x512xf32>) permutation = [0, 2, 1]
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%h, 0, 0] [1, 64, 512] [1, 1, 1] : tensor<1x64x512xf32> into tensor<4x64x512xf32>
    }
  }
  return %r : tensor<4x64x512xf32>
}

// -----

// A transpose on buffers (user IR) is left alone: it has no result to tile
// (this used to crash the pass).
// CHECK-LABEL: func.func @transpose_memref
// CHECK: linalg.transpose ins(%{{.*}} : memref<32x32xf32>) outs(%{{.*}} : memref<32x32xf32>) permutation = [1, 0]
// CHECK-NOT: vector.transfer_read
func.func @transpose_memref(%a: memref<32x32xf32>, %b: memref<32x32xf32>) {
  linalg.transpose ins(%a : memref<32x32xf32>) outs(%b : memref<32x32xf32>) permutation = [1, 0]
  return
}

// -----

// A strided convolution reads its padded input split into stride phases
// (x[.., 2j + r] as [.., r, j]): a copy generic that is not unit-stride
// along its innermost loop. Large and outside any loop, it is an
// scf.forall over its leading loops, one row per iteration.
// Channels-last (the default for 32 output channels) reads the input
// directly, broadcast, at 2j + b: no phases.
// CHECK-LABEL: func.func @stride_phases
// CHECK-NOT: tensor<4x32x50x2x25xf32>
// CHECK: vector.fma {{.*}} : vector<32xf32>
// With channels-last off:
// ROWS-LABEL: func.func @stride_phases
// ROWS: %[[PHASES:.*]] = tensor.empty() : tensor<4x32x50x2x25xf32>
// ROWS: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (4, 32, 50) shared_outs(%{{.*}} = %[[PHASES]])
// ROWS: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x1x50xf32>) outs(%{{.*}} : tensor<1x1x1x2x25xf32>)
// ROWS: scf.forall.in_parallel
func.func @stride_phases(%x: tensor<4x32x48x48xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<4x32x24x24xf32> {
  %y = rlx.conv2d %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<4x32x48x48xf32>, tensor<32x32x3x3xf32> -> tensor<4x32x24x24xf32>
  return %y : tensor<4x32x24x24xf32>
}

// -----

// A large transpose of index elements (user IR) is still split over
// threads, but not cut into vector squares: an index has no bit width to
// count lanes by (this used to crash the pass).
// CHECK-LABEL: func.func @transpose_index
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, 32)
// CHECK-NOT: vector.transfer_read
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x64x1x40xindex>)
// CHECK: scf.forall.in_parallel
func.func @transpose_index(%x: tensor<4x64x32x40xindex>) -> tensor<4x32x40x64xindex> {
  %e = tensor.empty() : tensor<4x32x40x64xindex>
  %t = linalg.transpose ins(%x : tensor<4x64x32x40xindex>) outs(%e : tensor<4x32x40x64xindex>) permutation = [0, 2, 3, 1]
  return %t : tensor<4x32x40x64xindex>
}

// -----

// The 1M-element zeroed table of an embedding gradient starts the scatter
// (its blocks of 128 rows on an scf.forall): its fill is an scf.forall over
// the rows (both threads zero their part), the scatter's blocks then add
// into it. A small table's fill stays.
// CHECK-LABEL: func.func @scatter_table
// CHECK: %[[TABLE:.+]] = scf.forall (%{{.*}}) in (2048) shared_outs
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x512xf32>)
// CHECK: scf.forall.in_parallel
// CHECK: scf.forall (%{{.*}}) in (16) shared_outs(%{{.*}} = %[[TABLE]]) -> (tensor<2048x512xf32>)
// CHECK: scf.for {{.*}} -> (tensor<128x512xf32>)
// CHECK-LABEL: func.func @scatter_small_table
// CHECK-NOT: scf.forall
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x512xf32>)
func.func @scatter_table(%dy: tensor<100x512xf32>, %i: tensor<100xi64>) -> tensor<2048x512xf32> {
  %r = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<100x512xf32>, tensor<100xi64> -> tensor<2048x512xf32>
  return %r : tensor<2048x512xf32>
}
func.func @scatter_small_table(%dy: tensor<100x512xf32>, %i: tensor<100xi64>) -> tensor<64x512xf32> {
  %r = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<100x512xf32>, tensor<100xi64> -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// -----

// A transpose whose 25 rows are 3 squares of 8 and an edge row of 1: the
// squares are vector transposes, the 1-row edge stays a linalg.transpose
// (its vector<1x8> -> vector<8x1> transpose is a shape_cast that the
// lowering patterns of rlx-vectorize-rows rewrote back and forth without
// end, when test_conv.py's f64 channels-last cases met in one module).
// CHECK-LABEL: func.func @transpose_edge_row
// CHECK: vector.transfer_read {{.*}} {permutation_map = #{{.*}}} : tensor<8x8xf64>, vector<8x8xf64>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x8xf64>) outs(%{{.*}} : tensor<8x1xf64>)
// CHECK-NOT: vector<1x8xf64>
func.func @transpose_edge_row(%x: tensor<25x16xf64>) -> tensor<16x25xf64> {
  %e = tensor.empty() : tensor<16x25xf64>
  %t = linalg.transpose ins(%x : tensor<25x16xf64>) outs(%e : tensor<16x25xf64>) permutation = [1, 0]
  return %t : tensor<16x25xf64>
}

// -----

// A channels-last input gradient of stride 2 (32 input channels) whose H
// and W (95) are not multiples of the stride: each of the 4 stride phases
// is a channels-last contraction on threads, transposed back in parallel,
// then copied into every second row and column of dx. That strided copy
// (scalar loops) is an scf.forall over (n, c) too, not a serial pass.
// CHECK-LABEL: func.func @strided_phase_copies
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, 48) {{.*}} -> (tensor<4x1x48x48x32xf32>)
// CHECK: scf.forall (%{{.*}}) in (4) {{.*}} -> (tensor<4x1x32x2304xf32>)
// CHECK: scf.forall (%[[N:.*]], %[[C:.*]]) in (4, 32) {{.*}} -> (tensor<4x32x95x95xf32>)
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[N]], %[[C]], 0, 0] [1, 1, 48, 48] [1, 1, 2, 2]
// CHECK: tensor.parallel_insert_slice %{{.*}} [1, 1, 48, 47] [1, 1, 2, 2]
// CHECK: tensor.parallel_insert_slice %{{.*}} [1, 1, 47, 48] [1, 1, 2, 2]
// CHECK: tensor.parallel_insert_slice %{{.*}} [1, 1, 47, 47] [1, 1, 2, 2]
// CHECK-NOT: tensor.insert_slice %{{.*}} [4, 32, {{.*}}] [1, 1, 2, 2]
func.func @strided_phase_copies(%dy: tensor<4x32x48x48xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<4x32x95x95xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<4x32x48x48xf32>, tensor<32x32x3x3xf32> -> tensor<4x32x95x95xf32>
  return %dx : tensor<4x32x95x95xf32>
}

// -----

// The same with H and W (96) multiples of the stride: each phase's
// contraction writes its slice of one channels-last dx [4, 1, 48, 2, 48,
// 2, 32] on threads, and one parallel transpose of [4, 1, 9216, 32] gives
// NCHW; no strided copy.
// CHECK-LABEL: func.func @phase_shuffle
// CHECK-COUNT-4: scf.forall (%{{.*}}, %{{.*}}) in (4, 48) {{.*}} -> (tensor<4x1x48x48x32xf32>)
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 1, 0, 1, 0] [4, 1, 48, 1, 48, 1, 32] [1, 1, 1, 1, 1, 1, 1] : tensor<4x1x48x48x32xf32> into tensor<4x1x48x2x48x2x32xf32>
// CHECK: scf.forall (%{{.*}}) in (4) {{.*}} -> (tensor<4x1x32x9216xf32>)
// CHECK-NOT: [1, 1, 2, 2]
func.func @phase_shuffle(%dy: tensor<4x32x48x48xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<4x32x96x96xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<4x32x48x48xf32>, tensor<32x32x3x3xf32> -> tensor<4x32x96x96xf32>
  return %dx : tensor<4x32x96x96xf32>
}
