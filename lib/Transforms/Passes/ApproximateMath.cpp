//===- ApproximateMath.cpp - the rlx-approximate-math pass ----------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXAPPROXIMATEMATH
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxApproximateMathPass
    : public rlx::impl::RlxApproximateMathBase<RlxApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // sin/cos are left to libm: their approximations assume a small range.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return llvm::StringSwitch<bool>(name)
          .Cases({"math.tanh", "math.erf", "math.exp", "math.expm1", "math.log",
                  "math.log1p", "math.atan"},
                 true)
          .Default(false);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
