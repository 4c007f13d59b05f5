//===- DecomposeScanBackward.cpp - Scan gradients --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"

using namespace mlir;
using namespace mlir::rlx;

using ScanDecompositions = DecompositionList<>;

void mlir::rlx::populateScanDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  ScanDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachScanDecompositionModels(MLIRContext *ctx) {
  ScanDecompositions::attachModels(ctx);
}
