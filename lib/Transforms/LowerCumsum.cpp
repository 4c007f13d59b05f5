//===- LowerCumsum.cpp - Cumsum forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateCumsumLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
