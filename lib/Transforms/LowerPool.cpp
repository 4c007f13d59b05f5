//===- LowerPool.cpp - Pool forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populatePoolLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
