//===- DecomposeCumsumBackward.cpp - Cumsum gradients ---------------------===//
//
// The gradient of a prefix sum is the reverse prefix sum of dy:
//
//   dx_i = sum_{j >= i} dy_j          (exclusive: sum_{j > i} dy_j)
//
// For a static axis of length L <= cumsum-matrix-max-length this is one
// matmul of dy (axis last, leading dims collapsed) with the constant
// triangular ones-matrix T[j, i] = (j >= i) (exclusive: j > i); longer or
// dynamic axes use an O(L) reverse scan (see CumsumUtils.h).
//
//===----------------------------------------------------------------------===//
#include "BuildUtils.h"
#include "CumsumUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"

using namespace mlir;
using namespace mlir::rlx;

/// dx = reverse (exclusive) cumsum of dy along axis.
static FailureOr<SmallVector<Value>>
decomposeCumsumBackward(RewriterBase &rewriter, CumsumBackwardOp op,
                        const DecompositionOptions &options) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  int64_t rank = op.getDy().getType().getRank();
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
  if (!axis)
    return rewriter.notifyMatchFailure(op, "'axis' is out of range");
  Value dx = buildCumsum(rewriter, op.getLoc(), op.getDy(), *axis,
                         op.getExclusive(), /*reverse=*/true,
                         options.cumsumMatrixMaxLength);
  return SmallVector<Value>{dx};
}

using CumsumDecompositions = DecompositionList<
    Decomposition<CumsumBackwardOp, decomposeCumsumBackward>>;

void mlir::rlx::populateCumsumDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  CumsumDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachCumsumDecompositionModels(MLIRContext *ctx) {
  CumsumDecompositions::attachModels(ctx);
}
