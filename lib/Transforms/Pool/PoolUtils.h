//===- PoolUtils.h - shared by the max-pool lowering and gradient -*- C++ -*-===//
#ifndef RLX_LIB_TRANSFORMS_POOL_POOLUTILS_H
#define RLX_LIB_TRANSFORMS_POOL_POOLUTILS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// The verifier guarantees a valid geometry; patterns re-check it so that an
/// op built without verification cannot make them index past the arrays.
inline LogicalResult checkPoolGeometry(RewriterBase &rewriter, Operation *op,
                                       ArrayRef<int64_t> kernel,
                                       ArrayRef<int64_t> stride,
                                       ArrayRef<int64_t> padding) {
  if (kernel.size() != 2 || stride.size() != 2 || padding.size() != 2 ||
      kernel[0] < 1 || kernel[1] < 1 || stride[0] < 1 || stride[1] < 1 ||
      padding[0] < 0 || padding[1] < 0)
    return rewriter.notifyMatchFailure(op, "invalid pooling geometry");
  return success();
}

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_POOL_POOLUTILS_H
