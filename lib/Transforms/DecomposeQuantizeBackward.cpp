//===- DecomposeQuantizeBackward.cpp - Quantize gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.h"

using namespace mlir;
using namespace mlir::rlx;

using QuantizeDecompositions = DecompositionList<>;

void mlir::rlx::populateQuantizeDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  QuantizeDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachQuantizeDecompositionModels(MLIRContext *ctx) {
  QuantizeDecompositions::attachModels(ctx);
}
