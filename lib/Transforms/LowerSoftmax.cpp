//===- LowerSoftmax.cpp - Softmax forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateSoftmaxLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
