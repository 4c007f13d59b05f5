//===- DecomposeRopeBackward.cpp - rope gradient --------------------------===//
//
// The rotation is orthogonal, so its gradient is the transposed rotation
// (sin -> -sin), one linalg.generic over dy (RopeUtils.h):
//   dx[i] = dy[i]*cos + dy[i+h]*sin,  dx[i+h] = dy[i+h]*cos - dy[i]*sin.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Rope/RopeUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

using namespace mlir;
using namespace mlir::rlx;

static FailureOr<SmallVector<Value>>
decomposeRopeBackward(RewriterBase &rewriter, RopeBackwardOp op,
                      const DecompositionOptions &) {
  return SmallVector<Value>{buildRopeRotation(
      rewriter, op.getLoc(), op.getDy(), op.getCos(), op.getSin(),
      op.getHeadDim(), op.getNRot(), /*inverse=*/true)};
}

using RopeDecompositions =
    DecompositionList<Decomposition<RopeBackwardOp, decomposeRopeBackward>>;

void mlir::rlx::populateRopeDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  RopeDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachRopeDecompositionModels(MLIRContext *ctx) {
  RopeDecompositions::attachModels(ctx);
}
