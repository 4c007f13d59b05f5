//===- BackwardGrad.h - rlx-grad of rlx backward ops ------------*- C++ -*-===//
//
// Higher-order gradients: an rlx *_backward op with no GradOpInterface rule
// of its own is differentiated through its decomposition (the patterns of
// rlx-decompose-backward, in their loop-free forms), whose linalg, tensor,
// arith and math ops have rules (BackwardGrad.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_AUTODIFF_BACKWARDGRAD_H
#define RLX_LIB_TRANSFORMS_AUTODIFF_BACKWARDGRAD_H

#include "mlir/IR/Operation.h"

namespace mlir::rlx {

/// Replaces the rlx backward op `op` in place by its decomposition (the
/// forms rlx-grad can differentiate: unrolled or matrix forms rather than
/// scf loops where the op has both). `newOps` gets the top-level ops that
/// replace it, in order, and `replacements` the values that replace its
/// results. On failure emits an error on `op` (with the pattern's reason)
/// and leaves it unchanged.
LogicalResult decomposeForGrad(Operation *op,
                               SmallVectorImpl<Operation *> &newOps,
                               SmallVectorImpl<Value> &replacements);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_AUTODIFF_BACKWARDGRAD_H
