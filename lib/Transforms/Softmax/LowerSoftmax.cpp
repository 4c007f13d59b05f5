//===- LowerSoftmax.cpp - softmax and cross-entropy to linalg -------------===//
//
// Every op starts from the row statistics of SoftmaxUtils.h (two reduction
// generics: the max, then the sum of exp(x - max)) and finishes with one
// generic that combines them.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Softmax/SoftmaxUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::rlx;

/// m = max_axis(x), s = sum_axis(exp(x - m)), y = exp(x - m) / s: two
/// reductions and one broadcasting elementwise generic.
static FailureOr<SmallVector<Value>>
lowerSoftmax(RewriterBase &rewriter, SoftmaxOp op, const LoweringOptions &) {
  Value x = op.getX();
  int64_t axis = verifiedAxis(op.getAxis(), op.getX().getType().getRank());
  Value y = buildSoftmax(rewriter, op.getLoc(), x, axis);
  return SmallVector<Value>{y};
}

/// y = x - m - log(s), with m and s the statistics of softmax(x): two
/// reductions and one broadcasting elementwise generic.
static FailureOr<SmallVector<Value>> lowerLogSoftmax(RewriterBase &rewriter,
                                                     LogSoftmaxOp op,
                                                     const LoweringOptions &) {
  Location loc = op.getLoc();
  Value x = op.getX();
  int64_t axis = verifiedAxis(op.getAxis(), op.getX().getType().getRank());
  Value m = buildMaxOverAxis(rewriter, loc, x, axis);
  Value s = buildSumExpOverAxis(rewriter, loc, x, m, axis);
  Value y = buildBroadcastElementwise(
      rewriter, loc, {x}, {m, s}, {axis},
      [](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value shifted = arith::SubFOp::create(b, l, args[0], args[1]);
        return arith::SubFOp::create(b, l, shifted,
                                     math::LogOp::create(b, l, args[2]));
      });
  return SmallVector<Value>{y};
}

/// loss[n] = m[n] + log(s[n]) - logits[n, labels[n]]. The pick of the
/// labelled logit is fused into the sum-of-exp reduction as a select on
/// (c == labels[n]), so an out-of-range label picks nothing (0):
///   m = max_c logits;  (s, p) = sum_c (exp(l - m), l if c == label else 0)
///   loss = m + log(s) - p
static FailureOr<SmallVector<Value>>
lowerSoftmaxCrossEntropy(RewriterBase &rewriter, SoftmaxCrossEntropyOp op,
                         const LoweringOptions &) {
  Location loc = op.getLoc();
  Value logits = op.getLogits();
  Value m = buildMaxOverAxis(rewriter, loc, logits, 1);
  AffineMap id = rewriter.getMultiDimIdentityMap(2);
  AffineMap row = id.dropResults(1);
  SmallVector<Value> sumAndPick = buildReduction(
      rewriter, loc, logits, {1},
      {{logits, id}, {m, row}, {op.getLabels(), row}}, {0.0, 0.0},
      [](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
        Value e = buildShiftedExp(b, l, args[0], args[1]);
        Value isLabel = buildIsLabel(b, l, 1, args[2]);
        return {arith::AddFOp::create(b, l, args[3], e),
                arith::SelectOp::create(b, l, isLabel, args[0], args[4])};
      });
  Value loss =
      buildElementwise(rewriter, loc, {m, sumAndPick[0], sumAndPick[1]},
                       [](OpBuilder &b, Location l, ValueRange args) -> Value {
                         Value lse = arith::AddFOp::create(
                             b, l, args[0], math::LogOp::create(b, l, args[1]));
                         return arith::SubFOp::create(b, l, lse, args[2]);
                       });
  return SmallVector<Value>{loss};
}

void mlir::rlx::populateSoftmaxLoweringPatterns(
    RewritePatternSet &patterns, const LoweringOptions &options) {
  addLoweringPatterns<
      Lowering<SoftmaxOp, lowerSoftmax>,
      Lowering<LogSoftmaxOp, lowerLogSoftmax>,
      Lowering<SoftmaxCrossEntropyOp, lowerSoftmaxCrossEntropy>>(patterns,
                                                                 options);
}
