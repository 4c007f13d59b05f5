//===- DecomposeBackward.cpp - the rlx-decompose-backward pass ------------===//
#include "Common/PatternGlue.h"
#include "Common/RewriteDriver.h"

#include "RlxAD/Transforms/Passes.h"
#include "RlxAD/Transforms/Transforms.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXDECOMPOSEBACKWARD
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateDecomposeBackwardPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  populateActivationDecompositionPatterns(patterns, options);
  populateNormDecompositionPatterns(patterns, options);
  populateConvDecompositionPatterns(patterns, options);
  populatePoolDecompositionPatterns(patterns, options);
  populateCumsumDecompositionPatterns(patterns, options);
  populateGatherDecompositionPatterns(patterns, options);
  populateSoftmaxDecompositionPatterns(patterns, options);
  populateQuantizeDecompositionPatterns(patterns, options);
  populateRopeDecompositionPatterns(patterns, options);
  populateAttentionDecompositionPatterns(patterns, options);
  populateScanDecompositionPatterns(patterns, options);
}

void mlir::rlx::registerDecompositionInterfaceModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, RlxDialect *) {
    attachActivationDecompositionModels(ctx);
    attachNormDecompositionModels(ctx);
    attachConvDecompositionModels(ctx);
    attachPoolDecompositionModels(ctx);
    attachCumsumDecompositionModels(ctx);
    attachGatherDecompositionModels(ctx);
    attachSoftmaxDecompositionModels(ctx);
    attachQuantizeDecompositionModels(ctx);
    attachRopeDecompositionModels(ctx);
    attachAttentionDecompositionModels(ctx);
    attachScanDecompositionModels(ctx);
  });
}

namespace {
struct RlxDecomposeBackwardPass
    : public rlx::impl::RlxDecomposeBackwardBase<RlxDecomposeBackwardPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<OpPredicate> filter = buildOpFilter(
        getOperation(), ops, &isRlxBackwardOp, "backward");
    if (failed(filter))
      return signalPassFailure();
    DecompositionOptions options;
    options.cumsumMatrixMaxLength = cumsumMatrixMaxLength;
    options.scanUnrollMaxLength = scanUnrollMaxLength;
    options.im2colMaxElements = im2colMaxElements;
    options.filter = *filter;
    RewritePatternSet patterns(&getContext());
    populateDecomposeBackwardPatterns(patterns, options);
    if (failed(applyAndReport(getOperation(), std::move(patterns), *filter,
                              allowPartial, "decompose")))
      signalPassFailure();
  }
};
} // namespace
