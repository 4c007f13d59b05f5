//===- DecomposeGatherBackward.cpp - Gather gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"

using namespace mlir;
using namespace mlir::rlx;

using GatherDecompositions = DecompositionList<>;

void mlir::rlx::populateGatherDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  GatherDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachGatherDecompositionModels(MLIRContext *ctx) {
  GatherDecompositions::attachModels(ctx);
}
