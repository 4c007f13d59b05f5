//===- ParallelCopies.h - large copies outside loops, on threads ----------===//
#ifndef RLXAD_TRANSFORMS_OPTIMIZE_PARALLELCOPIES_H
#define RLXAD_TRANSFORMS_OPTIMIZE_PARALLELCOPIES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Rewrites the large copies outside any loop under `root` (over 2^18
/// elements: a zero tensor.pad whose leading dims are not padded, a
/// linalg.transpose, a generic that copies its input with a stride) as
/// scf.foralls over their leading dims. A transpose that swaps the last two
/// dims is cut into squares of one vector register (`vectorBits`) each way,
/// vectorized.
void parallelizeLargeCopies(RewriterBase &rewriter, Operation *root,
                            int64_t vectorBits);

} // namespace mlir::rlx

#endif // RLXAD_TRANSFORMS_OPTIMIZE_PARALLELCOPIES_H
