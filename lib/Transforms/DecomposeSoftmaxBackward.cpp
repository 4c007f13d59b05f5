//===- DecomposeSoftmaxBackward.cpp - Softmax gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"

using namespace mlir;
using namespace mlir::rlx;

using SoftmaxDecompositions = DecompositionList<>;

void mlir::rlx::populateSoftmaxDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  SoftmaxDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachSoftmaxDecompositionModels(MLIRContext *ctx) {
  SoftmaxDecompositions::attachModels(ctx);
}
