//===- LowerNorm.cpp - Norm forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateNormLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
