//===- LowerConv.cpp - Conv forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateConvLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
