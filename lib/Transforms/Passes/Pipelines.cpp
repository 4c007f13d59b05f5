//===- Pipelines.cpp - rlx-to-linalg and rlx-to-llvm ----------------------===//
#include "RlxAD/Transforms/Pipelines.h"
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::rlx;

/// `op` as loops over its rows that copy each row with vector loads and
/// stores (chunks of kChunk elements and one remainder vector), when its
/// shape is static and both rows have unit stride. LLVM fully unrolled the
/// scalar loops of a short row (a depthwise convolution's padded 56-wide
/// plane) and then left them scalar: it cannot prove that the two views do
/// not overlap.
static bool copyRowsAsVectors(RewriterBase &rewriter, memref::CopyOp op) {
  constexpr int64_t kChunk = 64;
  auto source = cast<MemRefType>(op.getSource().getType());
  auto target = cast<MemRefType>(op.getTarget().getType());
  Type element = source.getElementType();
  if (!source.hasStaticShape() || !element.isIntOrFloat() ||
      !source.isLastDimUnitStride() || !target.isLastDimUnitStride() ||
      source.getShape().back() < 2)
    return false;
  int64_t width = source.getShape().back();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d : source.getShape().drop_back()) {
    lbs.push_back(index(0));
    ubs.push_back(index(d));
    steps.push_back(index(1));
  }
  int64_t whole = width / kChunk * kChunk;
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange rows) {
        auto copyAt = [&](OpBuilder &b, Value column, int64_t size) {
          SmallVector<Value> at(rows);
          at.push_back(column);
          Value v = vector::LoadOp::create(
              b, l, VectorType::get({size}, element), op.getSource(), at);
          vector::StoreOp::create(b, l, v, op.getTarget(), at);
        };
        if (whole > 0)
          scf::ForOp::create(
              b, l, index(0), index(whole), index(kChunk), ValueRange{},
              [&](OpBuilder &b, Location, Value column, ValueRange) {
                copyAt(b, column, kChunk);
                scf::YieldOp::create(b, l);
              });
        if (width > whole)
          copyAt(b, index(whole), width - whole);
      });
  rewriter.eraseOp(op);
  return true;
}

namespace {
/// A memref.copy between memrefs that are not both contiguous lowers to a
/// call of the runtime's generic memrefCopy, which computes every element's
/// address on its own (~10x slower than a loop): the strided copies of
/// tensor.pad and insert_slice (conv padding, stride phases, im2col) become
/// vector row copies (copyRowsAsVectors) or, when that does not apply,
/// linalg.copy, that is loops that LLVM vectorizes. Contiguous copies stay
/// memref.copy (a memcpy).
struct StridedCopyToLoopsPass
    : public PassWrapper<StridedCopyToLoopsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StridedCopyToLoopsPass)
  StringRef getArgument() const override { return "rlx-strided-copy-to-loops"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp op) { copies.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp op : copies) {
      auto source = dyn_cast<MemRefType>(op.getSource().getType());
      auto target = dyn_cast<MemRefType>(op.getTarget().getType());
      if (!source || !target || source.getRank() == 0 ||
          (source.getLayout().isIdentity() && target.getLayout().isIdentity()))
        continue;
      if (copyRowsAsVectors(rewriter, op))
        continue;
      rewriter.setInsertionPoint(op);
      linalg::CopyOp::create(rewriter, op.getLoc(), op.getSource(),
                             op.getTarget());
      rewriter.eraseOp(op);
    }
  }
};
} // namespace

RlxDecomposeBackwardOptions
RlxPipelineOptions::decomposeBackwardOptions() const {
  RlxDecomposeBackwardOptions options;
#define RLX_DECOMPOSE_BACKWARD_OPTION(Field, Arg) options.Field = Field;
#include "RlxAD/Transforms/PassOptions.def"
  return options;
}

RlxLowerToLinalgOptions RlxPipelineOptions::lowerToLinalgOptions() const {
  RlxLowerToLinalgOptions options;
#define RLX_LOWER_TO_LINALG_OPTION(Field, Arg) options.Field = Field;
#include "RlxAD/Transforms/PassOptions.def"
  return options;
}

RlxOptimizeContractionsOptions
RlxPipelineOptions::optimizeContractionsOptions() const {
  RlxOptimizeContractionsOptions options;
#define RLX_OPTIMIZE_CONTRACTIONS_OPTION(Field, Arg) options.Field = Field;
#include "RlxAD/Transforms/PassOptions.def"
  return options;
}

RlxFuseRowsOptions RlxPipelineOptions::fuseRowsOptions() const {
  RlxFuseRowsOptions options;
#define RLX_FUSE_ROWS_OPTION(Field, Arg) options.Field = Field;
#include "RlxAD/Transforms/PassOptions.def"
  return options;
}

RlxVectorizeRowsOptions RlxPipelineOptions::vectorizeRowsOptions() const {
  RlxVectorizeRowsOptions options;
#define RLX_VECTORIZE_ROWS_OPTION(Field, Arg) options.Field = Field;
#include "RlxAD/Transforms/PassOptions.def"
  options.vectorBits = vectorBits;
  return options;
}

void mlir::rlx::buildRlxToLinalgPipeline(OpPassManager &pm,
                                         const RlxPipelineOptions &options) {
  pm.addPass(createRlxGrad()); // functions marked rlx.grad, if any
  pm.addPass(createRlxDecomposeBackward(options.decomposeBackwardOptions()));
  pm.addPass(createRlxLowerToLinalg(options.lowerToLinalgOptions()));
  // arith/math ops on tensors (in models, or from rlx-grad) -> linalg.generic
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::rlx::buildRlxToLLVMPipeline(OpPassManager &pm,
                                       const RlxPipelineOptions &options) {
  // The contracts are checked on the rlx ops, before they are rewritten.
  if (options.checkShapes)
    pm.addPass(createRlxCheckContracts());
  buildRlxToLinalgPipeline(pm, options);
  if (options.checkShapes)
    pm.addPass(createRlxCheckShapes());
  if (options.approximateMath)
    pm.addPass(createRlxApproximateMath());
  if (options.optimizeContractions)
    pm.addPass(
        createRlxOptimizeContractions(options.optimizeContractionsOptions()));
  if (options.fuseRows) {
    pm.addPass(createRlxFuseRows(options.fuseRowsOptions()));
    // A producer read through several of its results is fused once per
    // result; CSE merges the copies, canonicalization folds the slices of
    // fills and empties.
    pm.addPass(createCSEPass());
    pm.addPass(createCanonicalizerPass());
  }
  if (options.vectorizeRows) {
    pm.addPass(createRlxVectorizeRows(options.vectorizeRowsOptions()));
  }
  if (options.loopOrder)
    pm.addPass(createRlxLoopOrder());
  if (options.emitCInterface)
    pm.addPass(createRlxEmitCInterface());

  // Tensors -> buffers. Identity layouts at function boundaries keep the C
  // interface simple; the deallocation pipeline makes every returned buffer
  // owned by the caller (it clones results that alias arguments).
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  if (options.hoistLoopBuffers)
    pm.addPass(createRlxHoistLoopBuffers());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(std::make_unique<StridedCopyToLoopsPass>());

  // Parallel loops -> OpenMP threads (or sequential loops).
  if (options.threads) {
    pm.addPass(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
    // Inlines the memref.alloca_scope around each parallel body (it holds
    // no alloca; its single-block region would not survive scf-to-cf).
    pm.addPass(createCanonicalizerPass());
  } else {
    pm.addPass(createForallToForLoopPass());
  }
  // What the micro-kernels leave of vector transfers -> loads and stores.
  VectorTransferToSCFOptions vectorToSCF;
  vectorToSCF.unroll = true;
  pm.addPass(createConvertVectorToSCFPass(vectorToSCF));

  // Buffers -> loops -> LLVM.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (options.streamingStores &&
      llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    pm.addPass(createRlxStreamingStores(
        RlxStreamingStoresOptions{options.streamingStoreMinBytes}));
  if (options.prefetchSlices)
    pm.addPass(createRlxPrefetchSlices());
  pm.addPass(createSCFToControlFlowPass());
  // bf16/f16 arithmetic outside rlx ops (a model's own updates, rlx-grad's
  // gradient sums) is computed in f32 and rounded once per op, as the rlx
  // ops are (see runInF32); the bf16 conversions become integer code, so
  // that no CPU feature or compiler-rt call is needed for them.
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16", "f16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  // Math before vectors: math-to-libm scalarizes the vector math that has
  // no LLVM intrinsic (f64 erf of a vectorized gelu) with
  // vector.extract/insert, which convert-vector-to-llvm then lowers.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // 16x16 f32 transposes (the squares of rlx-optimize-contractions'
  // transposes) as shuffles of whole registers; other shapes element-wise.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle16x16;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::rlx::registerRlxPipelines() {
  PassPipelineRegistration<RlxPipelineOptions>(
      "rlx-to-linalg",
      "Decompose rlx backward ops and lower forward ops to linalg on tensors",
      buildRlxToLinalgPipeline);
  PassPipelineRegistration<RlxPipelineOptions>(
      "rlx-to-llvm",
      "Lower an rlx program to the LLVM dialect (bufferized, loops)",
      buildRlxToLLVMPipeline);
}
