//===- LowerScan.cpp - Scan forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateScanLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
