//===- LowerGather.cpp - Gather forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateGatherLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
