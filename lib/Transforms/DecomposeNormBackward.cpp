//===- DecomposeNormBackward.cpp - Norm gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"

using namespace mlir;
using namespace mlir::rlx;

using NormDecompositions = DecompositionList<>;

void mlir::rlx::populateNormDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  NormDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachNormDecompositionModels(MLIRContext *ctx) {
  NormDecompositions::attachModels(ctx);
}
