//===- DecomposeActivationBackward.cpp - relu/activation gradients --------===//
//
// Both gradients are one elementwise linalg.generic over (x, dy):
//
//   dx[i] = act'(x[i]) * dy[i]
//
//===----------------------------------------------------------------------===//
#include "Activation/ActivationMath.h"
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

/// dx = act'(x) * dy in one generic.
static FailureOr<SmallVector<Value>>
decomposeWithDerivative(RewriterBase &rewriter, Operation *op,
                        ActivationKind kind, Value x, Value dy,
                        const ActivationParams &params = {}) {
  Value dx = buildElementwise(
      rewriter, op->getLoc(), {x, dy},
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        if (kind == ActivationKind::relu) // dy where x > 0 else 0
          return arith::SelectOp::create(
              b, loc,
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, args[0],
                                    floatConst(b, loc, args[0].getType(), 0)),
              args[1], floatConst(b, loc, args[0].getType(), 0));
        Value d = buildActivationDerivative(b, loc, kind, args[0], params);
        return arith::MulFOp::create(b, loc, d, args[1]);
      });
  return SmallVector<Value>{dx};
}

static FailureOr<SmallVector<Value>>
decomposeReluBackward(RewriterBase &rewriter, ReluBackwardOp op,
                      const DecompositionOptions &) {
  return decomposeWithDerivative(rewriter, op, ActivationKind::relu, op.getX(),
                                 op.getDy());
}

static FailureOr<SmallVector<Value>>
decomposeActivationBackward(RewriterBase &rewriter, ActivationBackwardOp op,
                            const DecompositionOptions &) {
  return decomposeWithDerivative(rewriter, op, op.getKind(), op.getX(),
                                 op.getDy(), ActivationParams::of(op));
}

using ActivationDecompositions = DecompositionList<
    Decomposition<ReluBackwardOp, decomposeReluBackward>,
    Decomposition<ActivationBackwardOp, decomposeActivationBackward>>;

void mlir::rlx::populateActivationDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  ActivationDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachActivationDecompositionModels(MLIRContext *ctx) {
  ActivationDecompositions::attachModels(ctx);
}
