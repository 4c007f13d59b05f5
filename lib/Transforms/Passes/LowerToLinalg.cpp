//===- LowerToLinalg.cpp - the rlx-lower-to-linalg pass -------------------===//
#include "Common/RewriteDriver.h"

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"

#include "RlxAD/Transforms/Passes.h"
#include "RlxAD/Transforms/Transforms.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXLOWERTOLINALG
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateLowerToLinalgPatterns(RewritePatternSet &patterns,
                                              const LoweringOptions &options) {
#define RLX_FAMILY(Family)                                                     \
  populate##Family##LoweringPatterns(patterns, options);
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"
}

namespace {
struct RlxLowerToLinalgPass
    : public rlx::impl::RlxLowerToLinalgBase<RlxLowerToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePassSpec spec{TypeID::get<rlx::OpTrait::Forward>(), "forward",
                         "lower"};
    LoweringOptions options;
#define RLX_LOWER_TO_LINALG_OPTION(Field, Arg) options.Field = Field;
#include "RlxAD/Transforms/PassOptions.def"
    if (failed(runRewritePass(getOperation(), spec, ops, allowPartial, options,
                              &populateLowerToLinalgPatterns)))
      signalPassFailure();
  }
};
} // namespace
