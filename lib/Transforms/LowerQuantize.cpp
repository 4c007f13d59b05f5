//===- LowerQuantize.cpp - Quantize forward ops to linalg --------------===//
#include "BuildUtils.h"
#include "PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateQuantizeLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<>(patterns, options);
}
