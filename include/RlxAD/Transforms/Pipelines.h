//===- Pipelines.h - rlx-to-linalg and rlx-to-llvm pipelines ----*- C++ -*-===//
#ifndef RLXAD_TRANSFORMS_PIPELINES_H
#define RLXAD_TRANSFORMS_PIPELINES_H

#include "RlxAD/Transforms/Passes.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace rlx {

/// Options of both pipelines.
struct RlxPipelineOptions : public PassPipelineOptions<RlxPipelineOptions> {
  //===--------------------------------------------------------------------===//
  // The rewrite options of the passes the pipelines run (PassOptions.def):
  // same name, type and default as the pass option (Passes.td).
  //===--------------------------------------------------------------------===//
#define RLX_PIPELINE_PASS_OPTION(Pass, PassArg, Field, Arg)                    \
  PassOptions::Option<decltype(Pass##Options::Field)> Field{                   \
      *this, Arg, llvm::cl::desc("The " Arg " option of " PassArg),            \
      llvm::cl::init(Pass##Options().Field)};
#define RLX_DECOMPOSE_BACKWARD_OPTION(Field, Arg)                              \
  RLX_PIPELINE_PASS_OPTION(RlxDecomposeBackward, "rlx-decompose-backward",     \
                           Field, Arg)
#define RLX_LOWER_TO_LINALG_OPTION(Field, Arg)                                 \
  RLX_PIPELINE_PASS_OPTION(RlxLowerToLinalg, "rlx-lower-to-linalg", Field, Arg)
#define RLX_OPTIMIZE_CONTRACTIONS_OPTION(Field, Arg)                           \
  RLX_PIPELINE_PASS_OPTION(RlxOptimizeContractions,                            \
                           "rlx-optimize-contractions", Field, Arg)
#define RLX_FUSE_ROWS_OPTION(Field, Arg)                                       \
  RLX_PIPELINE_PASS_OPTION(RlxFuseRows, "rlx-fuse-rows", Field, Arg)
#define RLX_VECTORIZE_ROWS_OPTION(Field, Arg)                                  \
  RLX_PIPELINE_PASS_OPTION(RlxVectorizeRows, "rlx-vectorize-rows", Field, Arg)
#include "RlxAD/Transforms/PassOptions.def"
#undef RLX_PIPELINE_PASS_OPTION

  /// The options of rlx-decompose-backward / rlx-lower-to-linalg (their
  /// rewrite options from the fields above, the others at their defaults).
  RlxDecomposeBackwardOptions decomposeBackwardOptions() const;
  RlxLowerToLinalgOptions lowerToLinalgOptions() const;
  RlxOptimizeContractionsOptions optimizeContractionsOptions() const;
  RlxFuseRowsOptions fuseRowsOptions() const;
  RlxVectorizeRowsOptions vectorizeRowsOptions() const;

  //===--------------------------------------------------------------------===//
  // Stages of rlx-to-llvm after rlx-to-linalg.
  //===--------------------------------------------------------------------===//
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("rlx-to-llvm: polynomial approximations of f32 "
                     "tanh/erf/exp/log/atan (vectorisable, a few ulp)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> loopOrder{
      *this, "loop-order",
      llvm::cl::desc("rlx-to-llvm: put a unit-stride loop innermost in every "
                     "linalg op before lowering to loops (rlx-loop-order)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkShapes{
      *this, "check-shapes",
      llvm::cl::desc("rlx-to-llvm: check at run time the shape contract of "
                     "every rlx op (rlx-check-contracts) and that the shapes "
                     "each linalg op relates agree (rlx-check-shapes); the "
                     "runtime turns a failure into an error"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("rlx-to-llvm: add llvm.emit_c_interface to public "
                     "functions (the runtime's calling convention)"),
      llvm::cl::init(false)};

  //===--------------------------------------------------------------------===//
  // Optimising codegen of rlx-to-llvm (lib/Transforms/Optimize/): the
  // switches that add or configure its stages (tiling, vectorisation,
  // fusion, threads) go here; the options of the passes those stages run go
  // in Passes.td and PassOptions.def like the rewrite options above.
  //===--------------------------------------------------------------------===//
  PassOptions::Option<bool> optimizeContractions{
      *this, "optimize-contractions",
      llvm::cl::desc("rlx-to-llvm: tile, vectorize and parallelize linalg "
                     "contractions into register-blocked micro-kernels "
                     "(rlx-optimize-contractions)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseRows{
      *this, "fuse-rows",
      llvm::cl::desc("rlx-to-llvm: fuse row reductions (norm, softmax, "
                     "cross-entropy statistics) and the elementwise ops that "
                     "read them into one loop over row blocks, and vectorize "
                     "reductions (rlx-fuse-rows; roots with more than "
                     "max-fused-ops producers are left alone, which bounds "
                     "the compile of higher-order gradients)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorizeRows{
      *this, "vectorize-rows",
      llvm::cl::desc("rlx-to-llvm: vectorize elementwise generics and row "
                     "reductions along their innermost unit-stride loop "
                     "(static V-wide tiles, peeled remainder, partial sums "
                     "in registers; rlx-vectorize-rows, after fuse-rows)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> hoistLoopBuffers{
      *this, "hoist-loop-buffers",
      llvm::cl::desc("rlx-to-llvm: allocate the temporaries of a loop body "
                     "once before the loop when they do not outlive an "
                     "iteration, instead of a malloc and free per iteration "
                     "(rlx-hoist-loop-buffers)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> streamingStores{
      *this, "streaming-stores",
      llvm::cl::desc("rlx-to-llvm, on x86: write results of at least "
                     "streaming-store-min-bytes that a function never reads "
                     "with non-temporal stores of whole cache lines "
                     "(rlx-streaming-stores)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> streamingStoreMinBytes{
      *this, "streaming-store-min-bytes",
      llvm::cl::desc("The min-bytes option of rlx-streaming-stores"),
      llvm::cl::init(4 << 20)};
  PassOptions::Option<bool> prefetchSlices{
      *this, "prefetch-slices",
      llvm::cl::desc("rlx-to-llvm: in a loop whose iterations read "
                     "consecutive blocks of an argument (planes, row "
                     "blocks), prefetch the next iteration's block during "
                     "the loops after the block's last read "
                     "(rlx-prefetch-slices)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> threads{
      *this, "threads",
      llvm::cl::desc("rlx-to-llvm: run the parallel loops (scf.forall) of "
                     "the optimised code on OpenMP threads (libomp; the "
                     "count is set at run time, RLX_NUM_THREADS); off: "
                     "sequential loops"),
      llvm::cl::init(true)};
};

/// rlx -> linalg on tensors: decompose backward ops, lower forward ops,
/// canonicalize and CSE. For compilers that take linalg from there.
void buildRlxToLinalgPipeline(OpPassManager &pm,
                              const RlxPipelineOptions &options);

/// rlx -> LLVM dialect: rlx-to-linalg, one-shot bufferization with
/// function-boundary bufferization, ownership-based deallocation, lowering to
/// loops and the LLVM dialect. The result runs with mlir-runner or translates
/// with mlir-translate --mlir-to-llvmir.
void buildRlxToLLVMPipeline(OpPassManager &pm,
                            const RlxPipelineOptions &options);

/// Registers both pipelines (`--rlx-to-linalg`, `--rlx-to-llvm`).
void registerRlxPipelines();

} // namespace rlx
} // namespace mlir

#endif // RLXAD_TRANSFORMS_PIPELINES_H
