//===- DecomposeCumsumBackward.cpp - Cumsum gradients ---------------------===//
//
// The gradient of a prefix sum is the reverse prefix sum of dy:
//
//   dx_i = sum_{j >= i} dy_j          (exclusive: sum_{j > i} dy_j)
//
// For a static axis this is a matmul of dy (axis last, leading dims
// collapsed) with a constant triangular ones-matrix T[j, i] = (j >= i)
// (exclusive: j > i): blockwise with the B x B matrix when L is longer than
// B = cumsum-block-length, else the L x L one for L <= cumsum-matrix-max-
// length; longer or dynamic axes use an O(L) reverse scan (CumsumUtils.h).
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Cumsum/CumsumUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// dx = reverse (exclusive) cumsum of dy along axis.
static FailureOr<SmallVector<Value>>
decomposeCumsumBackward(RewriterBase &rewriter, CumsumBackwardOp op,
                        const DecompositionOptions &options) {
  return SmallVector<Value>{buildCumsum(
      rewriter, op.getLoc(), op.getDy(), op.getAxis(), op.getExclusive(),
      /*reverse=*/true, options.cumsumMatrixMaxLength,
      options.cumsumBlockLength, options.cumsumTileBytes)};
}

using CumsumDecompositions =
    DecompositionList<Decomposition<CumsumBackwardOp, decomposeCumsumBackward>>;

void mlir::rlx::populateCumsumDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  CumsumDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachCumsumDecompositionModels(MLIRContext *ctx) {
  CumsumDecompositions::attachModels(ctx);
}
