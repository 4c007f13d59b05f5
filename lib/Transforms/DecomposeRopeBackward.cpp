//===- DecomposeRopeBackward.cpp - Rope gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

using namespace mlir;
using namespace mlir::rlx;

using RopeDecompositions = DecompositionList<>;

void mlir::rlx::populateRopeDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  RopeDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachRopeDecompositionModels(MLIRContext *ctx) {
  RopeDecompositions::attachModels(ctx);
}
