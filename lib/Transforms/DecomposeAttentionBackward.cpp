//===- DecomposeAttentionBackward.cpp - Attention gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"

using namespace mlir;
using namespace mlir::rlx;

using AttentionDecompositions = DecompositionList<>;

void mlir::rlx::populateAttentionDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  AttentionDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachAttentionDecompositionModels(MLIRContext *ctx) {
  AttentionDecompositions::attachModels(ctx);
}
