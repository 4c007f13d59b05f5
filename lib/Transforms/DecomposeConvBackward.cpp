//===- DecomposeConvBackward.cpp - Conv gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"

using namespace mlir;
using namespace mlir::rlx;

using ConvDecompositions = DecompositionList<>;

void mlir::rlx::populateConvDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  ConvDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachConvDecompositionModels(MLIRContext *ctx) {
  ConvDecompositions::attachModels(ctx);
}
