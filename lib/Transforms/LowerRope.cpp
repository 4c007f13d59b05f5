//===- LowerRope.cpp - Rope forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateRopeLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
