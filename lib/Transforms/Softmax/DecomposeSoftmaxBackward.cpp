//===- DecomposeSoftmaxBackward.cpp - softmax and cross-entropy gradients -===//
//
// Every gradient recomputes the statistics of the softmax of its input:
// m = max (SoftmaxUtils.h), e = exp(x - m) once (an elementwise generic:
// the exponential is most of the work per element, and rlx-fuse-rows keeps
// e's row block in cache for its two readers), a sum of e that also
// accumulates what the gradient needs, and one broadcasting elementwise
// generic that reads e; four generics in all (five for cross-entropy: its row scalars),
// whatever the tensor sizes:
//
//   softmax_backward:       (s, t) = sum(e, dy * e)
//                           dx = e/s * (dy - t/s)
//   log_softmax_backward:   (s, g) = sum(e, dy)
//                           dx = dy - e/s * g
//   softmax_cross_entropy_backward:
//     s = sum(e), r = d_loss / s (per row), then
//     dlogits[n, c] = e * r[n] - (c == labels[n] ? d_loss[n] : 0)
//     (the one-hot term compares the class index with the label)
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Softmax/SoftmaxUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

/// m = max_c logits, e = exp(logits - m), s = sum_c e, r = d_loss / s per
/// row, then one generic over [N, C]: e * r - select(c == label, d_loss, 0),
/// which is (e/s - onehot) * d_loss. The row's scalars (r, d_loss, the
/// label) are computed before the [N, C] loop, not per element: with
/// (e * (1/s) - onehot) * d_loss the column loop divided by s per vector,
/// as LLVM could not hoist the load of s past the stores of dlogits (the
/// two buffers might alias). A label outside [0, C) never equals c, so it
/// contributes no one-hot term.
static FailureOr<SmallVector<Value>>
decomposeSoftmaxCrossEntropyBackward(RewriterBase &rewriter,
                                     SoftmaxCrossEntropyBackwardOp op,
                                     const DecompositionOptions &) {
  Location loc = op.getLoc();
  Value logits = op.getLogits(), dLoss = op.getDLoss();
  Value m = buildMaxOverAxis(rewriter, loc, logits, 1);
  Value e = buildShiftedExpOverAxis(rewriter, loc, logits, m, 1);
  Value s = buildSum(rewriter, loc, e, {1});
  Value r = buildElementwise(
      rewriter, loc, {dLoss, s},
      [](OpBuilder &b, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(b, l, args[0], args[1]);
      });
  Value dlogits = buildBroadcastElementwise(
      rewriter, loc, {e}, {r, op.getLabels(), dLoss}, {1},
      [](OpBuilder &b, Location l, ValueRange args) -> Value {
        // args: e, r, label, d_loss
        Value oneHot = arith::SelectOp::create(
            b, l, buildIsLabel(b, l, 1, args[2]), args[3],
            floatConst(b, l, args[0].getType(), 0.0));
        return arith::SubFOp::create(
            b, l, arith::MulFOp::create(b, l, args[0], args[1]), oneHot);
      });
  return SmallVector<Value>{dlogits};
}

/// e = exp(x - m) for m = max(x) along `axis` (an elementwise generic, so
/// that the sums and the gradient read it rather than each computing the
/// exponential again), then in one reduction s = sum(e) and
/// t = sum(term(dy, e)). Returns {e, s, t}.
static SmallVector<Value> buildSoftmaxStatsWithSum(
    RewriterBase &rewriter, Location loc, Value x, Value dy, int64_t axis,
    function_ref<Value(OpBuilder &, Location, Value dy, Value e)> term) {
  Value m = buildMaxOverAxis(rewriter, loc, x, axis);
  Value e = buildShiftedExpOverAxis(rewriter, loc, x, m, axis);
  AffineMap id =
      rewriter.getMultiDimIdentityMap(cast<ShapedType>(x.getType()).getRank());
  SmallVector<Value> sums = buildReduction(
      rewriter, loc, x, {axis}, {{e, id}, {dy, id}}, {0.0, 0.0},
      [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
        return {
            arith::AddFOp::create(b, l, args[2], args[0]),
            arith::AddFOp::create(b, l, args[3], term(b, l, args[1], args[0]))};
      });
  return {e, sums[0], sums[1]};
}

/// The gradient of a softmax-family op from its statistics: e, s and
/// t = sum(term(dy, e)) (buildSoftmaxStatsWithSum), then one broadcasting
/// generic dx = combine(y, dy, s, t) with y = e / s.
static Value buildSoftmaxFamilyGrad(
    RewriterBase &rewriter, Location loc, Value x, Value dy, int64_t axis,
    function_ref<Value(OpBuilder &, Location, Value dy, Value e)> term,
    function_ref<Value(OpBuilder &, Location, Value y, Value dy, Value s,
                       Value t)>
        combine) {
  SmallVector<Value> stats =
      buildSoftmaxStatsWithSum(rewriter, loc, x, dy, axis, term);
  return buildBroadcastElementwise(
      rewriter, loc, {stats[0], dy}, {stats[1], stats[2]}, {axis},
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        // args: e, dy, s, t
        Value y = arith::DivFOp::create(b, l, args[0], args[2]);
        return combine(b, l, y, args[1], args[2], args[3]);
      });
}

/// dx = y * (dy - sum(dy * y)), y = e / s: with t = sum(dy * e),
/// dx = e/s * (dy - t/s).
static FailureOr<SmallVector<Value>>
decomposeSoftmaxBackward(RewriterBase &rewriter, SoftmaxBackwardOp op,
                         const DecompositionOptions &) {
  Value dx = buildSoftmaxFamilyGrad(
      rewriter, op.getLoc(), op.getX(), op.getDy(),
      verifiedAxis(op.getAxis(), op.getX().getType().getRank()),
      [](OpBuilder &b, Location l, Value g, Value e) -> Value {
        return arith::MulFOp::create(b, l, g, e);
      },
      [](OpBuilder &b, Location l, Value y, Value g, Value s,
         Value t) -> Value {
        Value mean = arith::DivFOp::create(b, l, t, s);
        return arith::MulFOp::create(b, l, y,
                                     arith::SubFOp::create(b, l, g, mean));
      });
  return SmallVector<Value>{dx};
}

/// dx = dy - softmax(x) * sum(dy).
static FailureOr<SmallVector<Value>>
decomposeLogSoftmaxBackward(RewriterBase &rewriter, LogSoftmaxBackwardOp op,
                            const DecompositionOptions &) {
  Value dx = buildSoftmaxFamilyGrad(
      rewriter, op.getLoc(), op.getX(), op.getDy(),
      verifiedAxis(op.getAxis(), op.getX().getType().getRank()),
      [](OpBuilder &, Location, Value g, Value) -> Value { return g; },
      [](OpBuilder &b, Location l, Value y, Value g, Value,
         Value sumDy) -> Value {
        return arith::SubFOp::create(b, l, g,
                                     arith::MulFOp::create(b, l, y, sumDy));
      });
  return SmallVector<Value>{dx};
}

using SoftmaxDecompositions = DecompositionList<
    Decomposition<SoftmaxBackwardOp, decomposeSoftmaxBackward>,
    Decomposition<LogSoftmaxBackwardOp, decomposeLogSoftmaxBackward>,
    Decomposition<SoftmaxCrossEntropyBackwardOp,
                  decomposeSoftmaxCrossEntropyBackward>>;

void mlir::rlx::populateSoftmaxDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  SoftmaxDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachSoftmaxDecompositionModels(MLIRContext *ctx) {
  SoftmaxDecompositions::attachModels(ctx);
}
