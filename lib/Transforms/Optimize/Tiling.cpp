//===- Tiling.cpp - tiling steps the Optimize passes share ----------------===//
#include "Optimize/Tiling.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

FailureOr<scf::SCFTilingResult> rlx::tileAndReplace(
    RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
    scf::SCFTilingOptions::LoopType loopType, ArrayRef<int64_t> interchange) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setLoopType(loopType);
  if (!interchange.empty())
    options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return result;
}

void rlx::applyWithCanonicalization(Operation *root,
                                    RewritePatternSet &&patterns) {
  MLIRContext *ctx = root->getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(root, std::move(patterns));
}

void rlx::canonicalizeTiles(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns =
      linalg::getLinalgTilingCanonicalizationPatterns(ctx);
  scf::populateSCFForLoopCanonicalizationPatterns(patterns);
  applyWithCanonicalization(root, std::move(patterns));
}

/// Whether every operand and result of `op` has a static shape.
static bool hasStaticShapes(Operation *op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

SmallVector<linalg::LinalgOp> rlx::takeMarked(Operation *root,
                                              StringRef marker) {
  SmallVector<linalg::LinalgOp> marked;
  root->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(marker))
      marked.push_back(op);
  });
  for (linalg::LinalgOp op : marked)
    op->removeAttr(marker);
  return marked;
}

void rlx::vectorizeMarked(RewriterBase &rewriter, Operation *root,
                          StringRef marker) {
  for (linalg::LinalgOp op : takeMarked(root, marker)) {
    if (!hasStaticShapes(op) || failed(linalg::vectorizeOpPrecondition(op)))
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, op);
    if (succeeded(vectorized))
      rewriter.replaceOp(op, vectorized->replacements);
  }
}

linalg::FillOp mlir::rlx::constantFill(Value c, TypedAttr &value) {
  auto fill = c.getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
      value.getType() != getElementTypeOrSelf(c.getType()))
    return {};
  return fill;
}

Operation *mlir::rlx::combinerOf(linalg::LinalgOp op, OpOperand &init) {
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  Value value =
      yield.getOperand(init.getOperandNumber() - op.getNumDpsInputs());
  Operation *combiner = value.getDefiningOp();
  if (!combiner || !llvm::is_contained(combiner->getOperands(),
                                       op.getMatchingBlockArgument(&init)))
    return nullptr;
  return combiner;
}
