//===- LowerRope.cpp - rope to linalg -------------------------------------===//
//
// One linalg.generic over x (RopeUtils.h): per head, for i < h = n_rot/2,
//   y[i] = x[i]*cos - x[i+h]*sin,  y[i+h] = x[i+h]*cos + x[i]*sin,
// dims >= n_rot copied.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Rope/RopeUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

using namespace mlir;
using namespace mlir::rlx;

static FailureOr<SmallVector<Value>>
lowerRope(RewriterBase &rewriter, RopeOp op, const LoweringOptions &) {
  return SmallVector<Value>{buildRopeRotation(
      rewriter, op.getLoc(), op.getX(), op.getCos(), op.getSin(),
      op.getHeadDim(), op.getNRot(), /*inverse=*/false)};
}

void mlir::rlx::populateRopeLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<Lowering<RopeOp, lowerRope>>(patterns, options);
}
