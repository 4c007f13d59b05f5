//===- Passes.td - rlx passes ---------------------------------*- tablegen -*-===//
//
// Every pass option is declared here, once. The options that configure the
// rewrites are also listed by name in PassOptions.def, from which the
// populate*Patterns options (Transforms.h) and the pipeline options
// (Pipelines.h) are derived.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_TRANSFORMS_PASSES_TD
#define RLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxDecomposeBackward : Pass<"rlx-decompose-backward"> {
  let summary = "Expand rlx *_backward ops into linalg/tensor/arith/math/scf";
  let description = [{
    Rewrites every `rlx.*_backward` op into linalg (named ops and
    `linalg.generic`), tensor, arith and math ops, with scf loops where a loop
    is the honest answer (long cumsums and scans, gather accumulation). The
    emitted IR does not grow with tensor sizes. The same decompositions are
    available to other compilers through
    `linalg::AggregatedOpInterface::decomposeOperation` and the public
    `populate*DecompositionPatterns` functions.

    An op that cannot be decomposed (for example a dynamic dimension the
    mathematics needs static) stays in place and the pass fails with an error
    naming the op and the reason; with `allow-partial` it is a warning and the
    pass succeeds.

    Example:
    ```
    rlx-opt --rlx-decompose-backward='ops=rlx.cumsum_backward cumsum-matrix-max-length=64' in.mlir
    ```
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Decompose only these ops (e.g. rlx.cumsum_backward); "
               "empty means every backward op">,
    Option<"allowPartial", "allow-partial", "bool", /*default=*/"false",
           "Warn about ops that cannot be decomposed instead of failing">,
    Option<"cumsumMatrixMaxLength", "cumsum-matrix-max-length", "int64_t",
           /*default=*/"256",
           "Longest static axis for which cumsum_backward uses a triangular "
           "ones-matrix matmul; longer or dynamic axes use an O(L) scan "
           "(unless cumsum-block-length applies). Also caps the block's "
           "matrix and the block count summed by a matrix in the blocked "
           "form">,
    Option<"cumsumBlockLength", "cumsum-block-length", "int64_t",
           /*default=*/"32",
           "cumsum_backward along a static axis longer than this B (and B <= "
           "cumsum-matrix-max-length) is a matmul of zero-padded blocks of B "
           "with the B x B triangular matrix plus the exclusive sum of the "
           "block totals added to each block: B multiply-adds per element "
           "instead of L with the L x L matrix or an O(L) loop of slices, "
           "for a few more passes over the tensor (pad, block totals); the "
           "carry is each block matmul's initial value. 0 = off">,
    Option<"cumsumTileBytes", "cumsum-tile-bytes", "int64_t",
           /*default=*/"32768",
           "cumsum_backward along the last axis, longer than "
           "cumsum-block-length, of a static number of rows that 16 divides: "
           "tiles of multiples of 16 rows by a chunk of the axis, at most "
           "this many bytes (L1), each transposed, scanned across its rows "
           "with the running sums carried from tile to tile, and transposed "
           "back, the blocks of rows on threads, instead of the blocked "
           "matmul (2 * B FLOPs per element): 4096x128 0.37 -> 0.30 ms. "
           "0 = off">,
    // Compile time grows with the number of clones of the body (each step's
    // matmuls become micro-kernels, then LLVM -O3 sees them all): a 16x128
    // RNN step took 5 s in rlx-opt alone at L = 64 unrolled, 0.5 s as a
    // loop at L = 256, and the loop ran as fast as the unrolled form
    // (bench.py scan rows), so only very short scans are unrolled.
    Option<"scanUnrollMaxLength", "scan-unroll-max-length", "int64_t",
           /*default=*/"4",
           "Longest scan that scan_backward unrolls; longer or dynamic "
           "lengths use an scf.for loop. Unrolling gives static slice offsets "
           "but costs compile time linear in the length (seconds per few "
           "dozen steps of a matmul body) and measured no run-time gain">,
    Option<"im2colMaxElements", "im2col-max-elements", "int64_t",
           /*default=*/"0",
           "Cap on the im2col buffer of conv2d_backward_weight, in elements; "
           "above it the N*Ho*Wo dimension is tiled with an scf.for "
           "(0 = no cap)">,
    Option<"convDirect", "conv-direct", "bool", /*default=*/"true",
           "conv2d_backward_weight as one contraction with the im2col folded "
           "into its indexing (implicit GEMM, no im2col buffer) instead of "
           "im2col + matmul">,
    Option<"convPhaseShuffle", "conv-phase-shuffle", "bool",
           /*default=*/"true",
           "conv-direct conv2d_backward_input with a stride that divides H "
           "and W: the stride phases are written into one phase-major "
           "buffer and interleaved into dx by one transpose (a pixel "
           "shuffle) instead of one strided copy per phase">,
    Option<"convChannelsLast", "conv-channels-last", "bool",
           /*default=*/"true",
           "conv-direct conv2d_backward_input whose input channels per group "
           "are a multiple of 16: each stride phase is computed "
           "channels-last (vectorized along the channels, not along rows of "
           "W that may fill vectors partly) and transposed back (with "
           "conv-phase-shuffle, all phases in one channels-last buffer and "
           "one transpose)">,
    Option<"attentionPerHead", "attention-per-head", "bool",
           /*default=*/"true",
           "attention_backward one (batch, head) at a time (an scf.for "
           "nest), so the [Sq, Sk] temporaries exist for one head only">,
    Option<"attentionBlocks", "attention-blocks", "bool", /*default=*/"true",
           "attention_backward per (batch, head) and block of query rows, "
           "FlashAttention-2 style: each block recomputes its scores and "
           "probabilities and computes its dq rows or adds its part to dk "
           "or dv (in block order), so only [rows, Sk] score tiles exist "
           "(not with a custom or rank-4 bias mask)">,
    Option<"attentionBlockRows", "attention-block-rows", "int64_t",
           /*default=*/"0",
           "Query rows per block of attention-blocks (0: from the shapes, "
           "so that a block's score tiles stay in cache)">,
    Option<"maxPoolScatter", "max-pool-scatter", "bool", /*default=*/"true",
           "max_pool2d_backward as one pass over the windows (an scf.forall "
           "over the (n, c) planes) that adds dy into dx at each window's "
           "argmax, instead of an argmax tensor of every window and a "
           "gather-sum over the positions">,
    Option<"maxPoolDirect", "max-pool-direct", "bool", /*default=*/"true",
           "max_pool2d_backward with dilation 1 and static planes under "
           "max-pool-scatter, without a scatter: with kernel == stride (no "
           "position in two windows) dx is one elementwise select of dy at "
           "each window's argmax; with overlapping windows and H, W "
           "multiples of the stride, one elementwise generic per row "
           "phase of dx's stride phases adds dy of the windows that reach "
           "the phase where the position is their argmax (instead of a "
           "zeroed plane and a scatter)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def RlxLowerToLinalg : Pass<"rlx-lower-to-linalg"> {
  let summary = "Lower rlx forward ops to linalg/tensor/arith/math/scf";
  let description = [{
    Rewrites every rlx forward op (`rlx.relu`, `rlx.conv2d`, `rlx.attention`,
    `rlx.scan`, ...) into linalg on tensors, with tensor, arith and math
    ops and scf where a loop is right. The emitted IR does not grow with
    tensor sizes. Ops that cannot be lowered make the pass fail with an error
    naming the op and the reason (a warning with `allow-partial`).
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Lower only these ops (e.g. rlx.conv2d); empty means all">,
    Option<"allowPartial", "allow-partial", "bool", /*default=*/"false",
           "Warn about ops that cannot be lowered instead of failing">,
    Option<"forwardCumsumMatrixMaxLength", "forward-cumsum-matrix-max-length",
           "int64_t", /*default=*/"256",
           "Longest static axis for which rlx.cumsum uses a triangular "
           "ones-matrix matmul; longer or dynamic axes use an O(L) scan "
           "(unless forward-cumsum-block-length applies)">,
    Option<"forwardCumsumBlockLength", "forward-cumsum-block-length",
           "int64_t", /*default=*/"32",
           "rlx.cumsum in blocks of this length along a static axis longer "
           "than it, as cumsum-block-length for cumsum_backward (0 = off)">,
    Option<"forwardCumsumTileBytes", "forward-cumsum-tile-bytes", "int64_t",
           /*default=*/"32768",
           "rlx.cumsum by transposed tiles of at most this many bytes, as "
           "cumsum-tile-bytes for cumsum_backward (0 = off)">,
    Option<"forwardConvDirect", "forward-conv-direct", "bool",
           /*default=*/"true",
           "conv2d as a direct-convolution contraction (a linalg.generic; "
           "a stride along W splits the input into W phases so that the "
           "output columns read unit-stride rows) instead of "
           "linalg.conv_2d_nchw_fchw">,
    Option<"forwardConvChannelsLast", "forward-conv-channels-last", "bool",
           /*default=*/"true",
           "forward-conv-direct conv2d whose output channels per group are a "
           "multiple of 16 computed channels-last: vectorized along the "
           "output channels (rows of Wo columns fill vectors partly unless "
           "Wo is a multiple of the vector width; no stride phases), then "
           "one transpose to NCHW">,
    Option<"forwardAttentionBlocks", "forward-attention-blocks", "bool",
           /*default=*/"true",
           "attention per (batch, head) and block of query rows (as "
           "attention-blocks for the backward), so only [rows, Sk] score "
           "tiles exist (not with a custom or rank-4 bias mask)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def RlxGrad : Pass<"rlx-grad", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode autodiff: build @<name>_grad from a forward function";
  let description = [{
    For each selected `func.func @f` (rlx forward ops, linalg structured ops
    with scalar arith/math bodies and projected-permutation maps, tensor
    reshapes, slices, pads and concats, arith and math), creates
    `@f_grad`:

    - arguments: `@f`'s arguments, then one cotangent per float result,
      except a scalar loss (0-d or one static element), whose cotangent is 1;
    - results: `@f`'s results, then the gradient with respect to each
      argument of `wrt`.

    Each op on a path from a `wrt` argument to a result needs a reverse rule
    (`rlx::GradOpInterface`); rlx forward ops use their `*_backward` ops.
    An op without a rule makes the pass fail with an error naming it ("is not
    differentiable"). The calling convention is in docs/Autodiff.md.

    Without `function=`, the pass differentiates the functions marked
    `rlx.grad` (a unit attribute, or `rlx.grad = array<i64: ...>` giving the
    `wrt` indices) and drops the mark; `rlx-to-linalg` runs it first, so a
    marked model compiles to its gradient directly. A private declaration
    of `@f_grad` with the right type may precede the pass, so that other
    functions (a training step) can call it; the pass defines it.

    Example:
    ```
    rlx-opt --rlx-grad='function=loss wrt=1,2' model.mlir
    ```
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The function to differentiate; empty means every function "
           "marked with an `rlx.grad` attribute">,
    ListOption<"wrt", "wrt", "unsigned",
               "Indices of the arguments to differentiate; empty means the "
               "function's `rlx.grad` indices, else every float argument">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
    "::mlir::func::FuncDialect"
  ];
}

def RlxApproximateMath : Pass<"rlx-approximate-math"> {
  let summary = "Replace f32 transcendental calls with polynomial approximations";
  let description = [{
    Rewrites f32 `math.tanh`, `math.erf`, `math.exp`, `math.expm1`,
    `math.log`, `math.log1p` and `math.atan` into polynomial approximations
    (arith and math.fma ops only), so that the loops around them vectorise
    instead of calling libm once per element. `math.exp`, the hot op of
    softmax, attention and cross-entropy, gets rlx's own sequence: 15 x86
    vector instructions (upstream's takes 20), within 1 ulp of exp wherever
    the result is a normal float (upstream's: up to 5 ulp near the top),
    +inf above ln FLT_MAX, 0 below about -87.68 (results under 2^-126.5),
    NaN kept. The others are MLIR's (accurate to a few ulp). f16 and f64 ops
    are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def RlxLoopOrder : Pass<"rlx-loop-order"> {
  let summary = "Generalize linalg ops and put a unit-stride loop innermost";
  let description = [{
    Prepares linalg on tensors for the loop lowering of rlx-to-llvm:
    generalizes named ops to `linalg.generic`, then, per generic, picks as
    innermost loop the dimension that indexes the last (contiguous) position
    of the most highest-rank operands (inputs count twice, outputs once;
    broadcast operands do not vote; for a compound index such as
    `oh * s + kh` the first dimension counts) and interchanges the iterators
    when that beats the current innermost one. A matmul's
    `(m, n, k)` becomes `(m, k, n)`, so the inner loop streams rows of B and
    C and vectorises. Reductions over a contiguous axis keep it innermost.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def RlxCheckShapes : Pass<"rlx-check-shapes"> {
  let summary = "Check at run time that linalg operand shapes agree";
  let description = [{
    Inserts, before every linalg op that is not nested in another linalg
    op, the runtime checks of upstream's RuntimeVerifiableOpInterface: every
    dimension the op's indexing maps relate must have the same size in every
    operand. `tensor.extract_slice`/`insert_slice` outside linalg bodies (the
    loops of gather_backward and scan) get their in-bounds checks too, and
    every `tensor.cast` to a more static type (a result type more static
    than the operand it is computed from) checks the dims it makes static. Dynamic dimensions that the IR relates (x and dy of a backward
    op, k and v of attention) are thus checked once per op instead of being
    trusted: a mismatch fails a `cf.assert` instead of reading out of bounds.
    The rlx runtime turns a failed check into an error of the call.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::index::IndexDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def RlxFuseRows : Pass<"rlx-fuse-rows"> {
  let summary = "Fuse row statistics and their elementwise tail into one "
                "pass per block of rows";
  let description = [{
    For every all-parallel linalg op on tensors that reads the result of a
    linalg reduction (directly or through other linalg ops) through a
    projection of its loops (the row statistics of a norm, softmax or
    cross-entropy gradient), tiles it along those row dims and fuses every
    linalg producer into the tile (`scf::tileConsumerAndFuseProducersUsingSCF`):
    the statistics of a block of rows, the per-row generic and the
    elementwise tail then run back to back on data in cache, one pass over
    memory instead of one per op. Large groups in no loop are an
    `scf.forall` (threads), the others an `scf.for`.

    A column reduction (a generic that sums over rows with its innermost
    loop parallel, such as a norm's gamma or beta gradient) is a root too:
    it is tiled along its rows by an `scf.for` that carries the sums, with
    the statistics of each block fused in, so x is read from memory once.
    When large, its row blocks are split into `column-partials` partial sums
    on an `scf.forall`, added in a fixed order after. Row reductions are
    never split, and the split is set by the shape, never by the thread
    count: a result is bitwise the same for any thread count. The
    combining `arith.addf`/`mulf` of
    every reduction generic are marked `reassoc` so that LLVM vectorizes the
    reduction loops.
  }];
  let options = [
    Option<"rowTileElements", "row-tile-elements", "int64_t",
           /*default=*/"32768",
           "Elements per row block: rows shorter than this share a tile (a "
           "divisor of the static row count), so that a block of x and dy "
           "stays in L2 and the block's small statistics buffers are "
           "allocated once per 32 rows of 1024, not per 4 (4096: 4.7 ms, "
           "32768: 4.2 ms for the 4096x1024 layer norm gradient)">,
    Option<"maxFusedOps", "max-fused-ops", "int64_t", /*default=*/"16",
           "A root with more linalg producers (transitively) is not fused: "
           "every producer is copied into its tile, so the IR and LLVM's "
           "compile time would grow with the chain (minutes for second "
           "derivatives); a norm or cross-entropy gradient has under 10. "
           "0: no bound">,
    Option<"columnPartials", "column-partials", "int64_t", /*default=*/"8",
           "Partial sums a large column reduction (a norm's gamma or beta "
           "gradient) is split into, on threads (a smaller power-of-2 "
           "divisor of its row blocks when that does not divide them): "
           "fixed by the shape, so the result does not depend on the "
           "thread count. 1: one sequential sum">,
    Option<"reassociate", "reassociate-reductions", "bool",
           /*default=*/"true",
           "Mark the combiners of reductions reassoc so that LLVM vectorizes "
           "them (the summation order changes, but not with the thread "
           "count)">,
    Option<"yieldShared", "yield-shared", "bool", /*default=*/"true",
           "A producer that a contraction also reads (attention's "
           "exp(Z - max) for wrt=value, which the dv product reads) is "
           "fused into the row tiles of the reduction that reads it (its "
           "row sums) and its rows are yielded from the tile loop for the "
           "contraction, when the tiles cover every row of it: one pass "
           "over each row instead of an exp pass and a sum pass. Off: such "
           "a producer is computed whole and the tiles read it">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def RlxHoistLoopBuffers : Pass<"rlx-hoist-loop-buffers"> {
  let summary = "Allocate a loop body's temporaries once, before the loop";
  let description = [{
    On bufferized code, before deallocations are placed: moves a
    `memref.alloc` in front of the `scf.for` whose body holds it when its
    sizes are defined outside the loop and the buffer does not outlive an
    iteration (no alias of it is yielded to the next iteration or out of the
    loop, passed to a call or returned), repeatedly through nested `scf.for`
    loops. The loop's iterations then reuse one buffer instead of a malloc
    and free each (the row temporaries of fused row blocks and attention's
    query blocks). Never out of `scf.forall` or `scf.parallel`: each
    thread keeps its own buffers.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def RlxStreamingStores : Pass<"rlx-streaming-stores"> {
  let summary = "Write large results that a function never reads with "
                "non-temporal stores of whole cache lines";
  let description = [{
    On bufferized code after `expand-strided-metadata` and `lower-affine`:
    replaces a `vector.transfer_write` with a
    `vector.store {nontemporal = true, alignment = 64}` when its buffer is a
    64-byte aligned `memref.alloc` of at least `min-bytes` that the function
    only writes (every use, through views, is a store, a dealloc or a
    return), and the write is an unmasked, in-bounds, contiguous vector of
    whole 64-byte lines at an address proven to be a multiple of 64 bytes
    (from the known power-of-two divisors of its offset and indices: loop
    bounds and steps, constants, arith on index). Such a store skips the
    read for ownership of every line it writes and leaves the cache to the
    inputs. An `llvm.x86.sse.sfence` at the end of each OpenMP parallel
    region holding one (else before the function's returns) orders them
    before the result is read. x86 only.

    Trade-off: a caller that reads the result right after reads it from
    memory rather than from the last-level cache; results below `min-bytes`
    are left to ordinary stores.

    Example: the dx of `rlx.rms_norm_backward_input` on 4096x1024 f32 is
    written with `vmovntps` (1 thread: 2.9 -> 1.7 ms).
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"4194304",
           "Smallest buffer (bytes) written with non-temporal stores "
           "(default 4 MiB, twice the private L2 caches of this 2-core "
           "machine together)">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def RlxPrefetchSlices : Pass<"rlx-prefetch-slices"> {
  let summary = "Prefetch the next iteration's block of an argument during "
                "the loops that follow the block's last read";
  let description = [{
    On bufferized code after `expand-strided-metadata` and `lower-affine`
    (every view is a `memref.reinterpret_cast` with an explicit offset):
    for each `scf.for`, `scf.parallel` or `omp.loop_nest` L and function
    argument A (identity layout) whose views inside L (at any depth) all
    have offsets affine in L's innermost induction variable with the same
    coefficient c (the induction variables of loops inside L count as 0),
    iteration i + 1 reads the E = c * step elements after iteration i's.
    When E is between `min-bytes` and `max-bytes` and K >= 1 outermost
    `scf.for` loops with static trip counts follow the last op of L's body
    that reads A, each of them issues `memref.prefetch` (read, locality 3)
    of a K-th of the next block's 64-byte lines, spread evenly over its
    trips. The next block starts at the first view's offset with the inner
    induction variables at their lower bounds, plus E; every address is
    clamped to A's elements. A hint only: no result changes.

    Why: a loop over blocks (max_pool2d_backward's (n, c) planes of x,
    49 KiB each; cross-entropy's blocks of 32 rows of logits, 125 KiB)
    starts each iteration with a burst of misses that the hardware stream
    prefetchers, which stop at 4 KiB page boundaries, do not hide, and then
    computes from cache while the memory bus idles. Blocks below
    `min-bytes` (a norm's rows) are left to the hardware prefetchers;
    blocks above `max-bytes` would evict what the current iteration still
    uses.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"16384",
           "Smallest block (bytes) that is prefetched">,
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"262144",
           "Largest block (bytes) that is prefetched (a quarter of a 1 MiB "
           "private L2 cache: the next block must not evict the current "
           "iteration's working set; a 512 KiB panel of a 512^3 matmul's B "
           "lost 1.5%)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def RlxVectorizeRows : Pass<"rlx-vectorize-rows"> {
  let summary = "Vectorize elementwise generics and row reductions along "
                "their innermost, unit-stride loop";
  let description = [{
    For every linalg.generic on tensors whose innermost loop every operand
    indexes last or not at all (the elementwise ops and row reductions of
    norms, cross-entropy, activations and fake-quantize, inside the row
    tiles of rlx-fuse-rows or not), tiles the outer loops by 1 (an
    `scf.forall` over the rows when they are parallel, see parallel-rows)
    and the
    innermost one by V (the vector width in elements of the widest
    operand), peels the remainder so that the main tiles are static, splits
    reductions into V partial sums (scf tiling with
    `PartialReductionOuterReduction`) kept in registers across the tile
    loop, and vectorizes every static tile op by op (`linalg::vectorize`),
    then lowers the vector ops to rank 1. Reductions sum in a different
    order than the scalar loop (the order depends on V, not on the thread
    count).

    A generic whose innermost loop is a few interleaved output phases (at
    most 8, walked only by the output, last; max_pool2d_backward's dx by
    stride phases) is vectorized along the loop before it instead, which
    every input walks last or not at all: per V columns, the inputs are
    read once, the body is cloned once per phase, and one `vector.shuffle`
    interleaves the phases into a contiguous vector<S*V> store (which
    rlx-streaming-stores can make non-temporal).
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "The vector register width in bits (0: the host's)">,
    Option<"parallelRows", "parallel-rows", "bool", /*default=*/"true",
           "The loop over the rows of an op whose outer dims are all "
           "parallel and that is not inside a loop is an scf.forall "
           "(threads); each row is computed by one thread, so results do "
           "not depend on the thread count">,
    Option<"parallelMinElements", "parallel-min-elements", "int64_t",
           /*default=*/"65536",
           "Ops with fewer iterations keep a sequential row loop (a "
           "parallel region costs a few microseconds)">,
    Option<"reductionVectors", "reduction-vectors", "int64_t",
           /*default=*/"4",
           "Independent add chains of a row reduction: a reduction of k "
           "sums takes this / k vectors of partial sums per sum (a tile "
           "that many vectors wide, when the row has that many lanes), "
           "where one vector accumulator makes every add wait for the "
           "previous one (cross-entropy 2.77 -> 2.52 ms). 1: one vector">,
    Option<"columnRows", "column-rows", "bool", /*default=*/"true",
           "A column reduction (a norm's gamma or beta gradient: rows "
           "reduced, columns vectorized) adds 4 rows to each accumulator "
           "vector in registers before storing it, in row order (bitwise "
           "the same sums); off: a load, add and store per row">,
    Option<"fastMaxima", "fast-maxima", "bool", /*default=*/"true",
           "A row maximum (maxnumf) whose init is a number (softmax's "
           "-inf) keeps partial maxima that start at -inf instead of NaN, "
           "so that they are never NaN and each step is one compare and "
           "select (one vmaxps, not four instructions in the chain), and "
           "every horizontal maximum is a tree of half-width maxima, not a "
           "chain over the lanes; exactly the same results">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def RlxOptimizeContractions : Pass<"rlx-optimize-contractions"> {
  let summary = "Tile, vectorize and parallelize linalg contractions";
  let description = [{
    Rewrites every linalg contraction on tensors, C += A * B
    (`linalg.matmul`, `linalg.batch_matmul`, `linalg.contract`, contraction
    generics, and generics indexed by sums of dims such as a direct
    convolution; f32 and f64) into a register-blocked micro-kernel:
    `scf.forall` over blocks of C (one thread per block; the reduction is
    never split, so results do not depend on the thread count), an `scf.for`
    over blocks of the reduction, and MR x NR register tiles (peeled so that
    the main tiles are static) whose reduction loop keeps the C rows in
    vector registers and issues broadcast(A) x vector(B) `vector.fma`s. The
    operand whose rows are loaded (B) is copied into a layout with the
    vectorized dim last when it is not. Tile sizes come from the shapes and
    the vector width. Tiles with a dynamic m or n extent are left to the
    scalar loop lowering. Every static `linalg.transpose` of the last two
    dims (such copies, inside loops too) is cut into one-register squares,
    each a transposed vector read.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "The vector register width in bits (0: the host's)">,
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Tile the result blocks with scf.forall (threads) instead of "
           "scf.for">,
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "The thread count the blocks of C are planned for: enough "
           "blocks for each thread (0: the host's cores)">,
    Option<"columnPieces", "column-pieces", "bool", /*default=*/"true",
           "Split a register-tile row whose width is not a power of two "
           "(an edge tile, a 56-wide convolution row) into overlapping "
           "one-register pieces instead of one odd-width vector, which "
           "LLVM widens into shuffles and spills">,
    Option<"reusePackedB", "reuse-packed-b", "bool", /*default=*/"true",
           "Goto's loop order for packed contractions (matmuls): a block of "
           "C spans several L2 blocks of A's rows and packs each KC block "
           "of B once for all of them, instead of one block of C per L2 "
           "block of A, each packing B again">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

def RlxCheckContracts : Pass<"rlx-check-contracts"> {
  let summary = "Check at run time the shape contract of every rlx op";
  let description = [{
    Inserts, before every rlx op, a `cf.assert` for each relation between
    dims that its verifier states but cannot decide statically because a
    dim is dynamic: operand dims that must agree (x and dy, the batch of q
    and k), a static result dim against the operand dim it comes from (a
    result type more static than its operand), divisibility (C by
    `num_groups`, the last dim of rope's x by `head_dim`), the window formula
    of convolution and pooling, the mask of attention. The verifiers are the
    one statement of these rules (`ShapeContract.h`). A failed check reports
    the op, its location and the relation, before the op touches memory;
    the rlx runtime turns it into an error of the call.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def RlxEmitCInterface : Pass<"rlx-emit-c-interface", "::mlir::ModuleOp"> {
  let summary = "Prepare public functions to be called from C";
  let description = [{
    Adds the `llvm.emit_c_interface` unit attribute to every public
    `func.func` definition, so that the LLVM lowering emits the
    `_mlir_ciface_<name>` wrapper the rlx runtime (and any C caller) uses,
    and marks their tensor arguments `bufferization.writable = false`: the
    caller owns those buffers, so bufferization never writes into them.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // RLX_TRANSFORMS_PASSES_TD
