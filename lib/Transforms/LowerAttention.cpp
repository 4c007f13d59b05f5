//===- LowerAttention.cpp - Attention forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateAttentionLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
