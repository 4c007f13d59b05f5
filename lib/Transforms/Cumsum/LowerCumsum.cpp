//===- LowerCumsum.cpp - Cumsum forward ops to linalg ---------------------===//
//
//   y_i = sum_{j <= i} x_j            (exclusive: sum_{j < i} x_j)
//
// A matmul with the triangular ones-matrix T[j, i] = (j <= i) (exclusive:
// j < i) for a static axis: blockwise with the B x B matrix when L is longer
// than B = forward-cumsum-block-length, else the L x L one for L <=
// forward-cumsum-matrix-max-length (256 by default); an O(L) scf.for scan
// otherwise (CumsumUtils.h).
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Cumsum/CumsumUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// y = (exclusive) prefix sum of x along axis.
static FailureOr<SmallVector<Value>>
lowerCumsum(RewriterBase &rewriter, CumsumOp op,
            const LoweringOptions &options) {
  return SmallVector<Value>{buildCumsum(
      rewriter, op.getLoc(), op.getX(), op.getAxis(), op.getExclusive(),
      /*reverse=*/false, options.forwardCumsumMatrixMaxLength,
      options.forwardCumsumBlockLength, options.forwardCumsumTileBytes)};
}

void mlir::rlx::populateCumsumLoweringPatterns(RewritePatternSet &patterns,
                                               const LoweringOptions &options) {
  addLoweringPatterns<Lowering<CumsumOp, lowerCumsum>>(patterns, options);
}
