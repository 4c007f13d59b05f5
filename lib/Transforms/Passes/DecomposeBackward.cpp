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
#define RLX_FAMILY(Family)                                                     \
  populate##Family##DecompositionPatterns(patterns, options);
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"
}

void mlir::rlx::registerDecompositionInterfaceModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, RlxDialect *) {
#define RLX_FAMILY(Family) attach##Family##DecompositionModels(ctx);
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"
  });
}

namespace {
struct RlxDecomposeBackwardPass
    : public rlx::impl::RlxDecomposeBackwardBase<RlxDecomposeBackwardPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePassSpec spec{TypeID::get<rlx::OpTrait::Backward>(), "backward",
                         "decompose"};
    DecompositionOptions options;
#define RLX_DECOMPOSE_BACKWARD_OPTION(Field, Arg) options.Field = Field;
#include "RlxAD/Transforms/PassOptions.def"
    if (failed(runRewritePass(getOperation(), spec, ops, allowPartial, options,
                              &populateDecomposeBackwardPatterns)))
      signalPassFailure();
  }
};
} // namespace
