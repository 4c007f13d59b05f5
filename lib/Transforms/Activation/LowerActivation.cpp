//===- LowerActivation.cpp - relu/activation to linalg --------------------===//
//
// One elementwise linalg.generic: y[i] = act(x[i]).
//
//===----------------------------------------------------------------------===//
#include "Activation/ActivationMath.h"
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.h"

using namespace mlir;
using namespace mlir::rlx;

static FailureOr<SmallVector<Value>>
lowerWithActivation(RewriterBase &rewriter, Operation *op, ActivationKind kind,
                    Value x, const ActivationParams &params = {}) {
  Value y =
      buildElementwise(rewriter, op->getLoc(), {x},
                       [&](OpBuilder &b, Location loc, ValueRange args) {
                         return buildActivation(b, loc, kind, args[0], params);
                       });
  return SmallVector<Value>{y};
}

static FailureOr<SmallVector<Value>>
lowerRelu(RewriterBase &rewriter, ReluOp op, const LoweringOptions &) {
  return lowerWithActivation(rewriter, op, ActivationKind::relu, op.getX());
}

static FailureOr<SmallVector<Value>> lowerActivation(RewriterBase &rewriter,
                                                     ActivationOp op,
                                                     const LoweringOptions &) {
  return lowerWithActivation(rewriter, op, op.getKind(), op.getX(),
                             ActivationParams::of(op));
}

void mlir::rlx::populateActivationLoweringPatterns(
    RewritePatternSet &patterns, const LoweringOptions &options) {
  addLoweringPatterns<Lowering<ReluOp, lowerRelu>,
                      Lowering<ActivationOp, lowerActivation>>(patterns,
                                                               options);
}
