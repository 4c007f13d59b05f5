//===- DecomposeSoftmaxBackward.cpp - cross-entropy gradient --------------===//
//
// softmax_cross_entropy_backward recomputes the row statistics from the
// logits (SoftmaxUtils.h) and builds the one-hot term inside the final
// elementwise generic by comparing the class index with the label:
//
//   dlogits[n, c] = (exp(l - m[n]) / s[n] - (c == labels[n])) * d_loss[n]
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Softmax/SoftmaxUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

/// m = max_c logits, s = sum_c exp(logits - m), then one generic over
/// [N, C]: (exp(l - m)/s - select(c == label, 1, 0)) * d_loss. A label
/// outside [0, C) never equals c, so it contributes no one-hot term.
static FailureOr<SmallVector<Value>>
decomposeSoftmaxCrossEntropyBackward(RewriterBase &rewriter,
                                     SoftmaxCrossEntropyBackwardOp op,
                                     const DecompositionOptions &) {
  Location loc = op.getLoc();
  Value logits = op.getLogits();
  Value m = buildMaxOverAxis(rewriter, loc, logits, 1);
  Value s = buildSumExpOverAxis(rewriter, loc, logits, m, 1);
  Value dlogits = buildBroadcastElementwise(
      rewriter, loc, {logits}, {m, s, op.getLabels(), op.getDLoss()}, {1},
      [](OpBuilder &b, Location l, ValueRange args) -> Value {
        Type t = args[0].getType();
        Value p = arith::DivFOp::create(
            b, l, buildShiftedExp(b, l, args[0], args[1]), args[2]);
        Value oneHot = arith::SelectOp::create(
            b, l, buildIsLabel(b, l, 1, args[3]), floatConst(b, l, t, 1.0),
            floatConst(b, l, t, 0.0));
        return arith::MulFOp::create(
            b, l, arith::SubFOp::create(b, l, p, oneHot), args[4]);
      });
  return SmallVector<Value>{dlogits};
}

using SoftmaxDecompositions =
    DecompositionList<Decomposition<SoftmaxCrossEntropyBackwardOp,
                                    decomposeSoftmaxCrossEntropyBackward>>;

void mlir::rlx::populateSoftmaxDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  SoftmaxDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachSoftmaxDecompositionModels(MLIRContext *ctx) {
  SoftmaxDecompositions::attachModels(ctx);
}
