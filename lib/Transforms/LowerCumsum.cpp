//===- LowerCumsum.cpp - Cumsum forward ops to linalg ---------------------===//
//
//   y_i = sum_{j <= i} x_j            (exclusive: sum_{j < i} x_j)
//
// A matmul with the triangular ones-matrix T[j, i] = (j <= i) (exclusive:
// j < i) for a static axis of at most 256 (the decomposition's default
// cumsum-matrix-max-length), an O(L) scf.for scan otherwise (CumsumUtils.h).
//
//===----------------------------------------------------------------------===//
#include "BuildUtils.h"
#include "CumsumUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"

using namespace mlir;
using namespace mlir::rlx;

/// y = (exclusive) prefix sum of x along axis.
static FailureOr<SmallVector<Value>>
lowerCumsum(RewriterBase &rewriter, CumsumOp op, const LoweringOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  int64_t rank = op.getX().getType().getRank();
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
  if (!axis)
    return rewriter.notifyMatchFailure(op, "'axis' is out of range");
  Value y = buildCumsum(rewriter, op.getLoc(), op.getX(), *axis,
                        op.getExclusive(), /*reverse=*/false,
                        DecompositionOptions().cumsumMatrixMaxLength);
  return SmallVector<Value>{y};
}

void mlir::rlx::populateCumsumLoweringPatterns(RewritePatternSet &patterns,
                                               const LoweringOptions &options) {
  addLoweringPatterns<Lowering<CumsumOp, lowerCumsum>>(patterns, options);
}
