//===- DecomposeCumsumBackward.cpp - Cumsum gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"

using namespace mlir;
using namespace mlir::rlx;

using CumsumDecompositions = DecompositionList<>;

void mlir::rlx::populateCumsumDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  CumsumDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachCumsumDecompositionModels(MLIRContext *ctx) {
  CumsumDecompositions::attachModels(ctx);
}
