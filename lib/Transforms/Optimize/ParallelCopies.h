//===- ParallelCopies.h - large copies outside loops, on threads ----------===//
#ifndef RLXAD_TRANSFORMS_OPTIMIZE_PARALLELCOPIES_H
#define RLXAD_TRANSFORMS_OPTIMIZE_PARALLELCOPIES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Rewrites the large copies outside any loop under `root` (over 2^18
/// elements: a zero tensor.pad whose leading dims are not padded, a
/// linalg.transpose, a generic that copies its input with a stride) as
/// scf.foralls over their leading dims.
void parallelizeLargeCopies(RewriterBase &rewriter, Operation *root);

/// Cuts every static linalg.transpose under `root` that swaps the last two
/// dims (inside loops too) into squares of one vector register
/// (`vectorBits`) each way, and vectorizes them.
void vectorizeTransposes(RewriterBase &rewriter, Operation *root,
                         int64_t vectorBits);

} // namespace mlir::rlx

#endif // RLXAD_TRANSFORMS_OPTIMIZE_PARALLELCOPIES_H
