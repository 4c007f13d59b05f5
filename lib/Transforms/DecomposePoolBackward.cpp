//===- DecomposePoolBackward.cpp - Pool gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"

using namespace mlir;
using namespace mlir::rlx;

using PoolDecompositions = DecompositionList<>;

void mlir::rlx::populatePoolDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  PoolDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachPoolDecompositionModels(MLIRContext *ctx) {
  PoolDecompositions::attachModels(ctx);
}
