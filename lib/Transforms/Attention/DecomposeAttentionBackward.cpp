//===- DecomposeAttentionBackward.cpp - Attention gradients --------------===//
//
// rlx.attention_backward recomputes P = softmax(mask(softcap(scale q k^T)))
// with the forward lowering's code (AttentionUtils.h), then, per batch b and
// head h (every product a linalg.contract over (b,h,i,j,d) that indexes the
// operands in their own layout):
//
//   value:        dv = P^T dy
//   query / key:  dP = dy v^T
//                 delta[i] = sum_j dP[i,j] * P[i,j]
//                 dS = scale * P * (dP - delta) * capFactor * keep
//                 dq = dS k          dk = dS^T q
//
// capFactor = 1 - tanh(scale*S/c)^2 with a softcap c (else 1); keep is 0
// where a causal/sliding_window/custom mask replaced the score by the
// constant -1e9 (whose derivative is 0), else 1. A bias adds to the score,
// so the gradient passes through it. dv needs neither dP nor dS.
//
//===----------------------------------------------------------------------===//
#include "Attention/AttentionUtils.h"
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// dS[b,h,i,j] = scale * P * (dP - delta[b,h,i]) * capFactor * keep in one
/// elementwise generic (delta is the row reduction of dP * P).
static Value buildScoreGradient(OpBuilder &b, Location loc,
                                const AttentionSpec &spec,
                                const AttentionProbs &probs, Value dP,
                                Value mask) {
  Type elementType = cast<ShapedType>(dP.getType()).getElementType();
  AffineMap identity = b.getMultiDimIdentityMap(4);
  AffineMap row = identity.dropResults(3);

  // delta[b,h,i] = sum_j dP * P.
  Value delta =
      buildSums(b, loc, dP, {3}, {{dP, identity}, {probs.probs, identity}}, 1,
                [](OpBuilder &nb, Location nloc, ValueRange args) {
                  return SmallVector<Value>{
                      arith::MulFOp::create(nb, nloc, args[0], args[1])};
                })[0];

  // Inputs: P, dP, delta, [S for the softcap factor], [the custom mask].
  SmallVector<GenericOperand> inputs = {
      {probs.probs, identity}, {dP, identity}, {delta, row}};
  int64_t scoresArg = -1, maskArg = -1;
  if (spec.softcap) {
    scoresArg = inputs.size();
    inputs.push_back({probs.scores, identity});
  }
  if (spec.maskKind == MaskKind::custom) {
    maskArg = inputs.size();
    inputs.push_back({mask, attentionMaskMap(b.getContext(), spec, mask)});
  }
  return buildGeneric(
      b, loc, inputs, {{emptyLike(b, loc, dP), identity}},
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        auto cst = [&](double value) {
          return floatConst(nb, nloc, elementType, value);
        };
        // scale * P * (dP - delta)
        Value ds = arith::MulFOp::create(
            nb, nloc, args[0],
            arith::SubFOp::create(nb, nloc, args[1], args[2]));
        ds = arith::MulFOp::create(nb, nloc, ds, cst(spec.scale));
        if (spec.softcap) { // * (1 - tanh(scale * S / c)^2)
          Value raw =
              arith::MulFOp::create(nb, nloc, args[scoresArg], cst(spec.scale));
          Value t = math::TanhOp::create(
              nb, nloc,
              arith::DivFOp::create(nb, nloc, raw, cst(*spec.softcap)));
          Value factor = arith::SubFOp::create(
              nb, nloc, cst(1.0), arith::MulFOp::create(nb, nloc, t, t));
          ds = arith::MulFOp::create(nb, nloc, ds, factor);
        }
        if (spec.hasReplacingMask()) { // 0 where the score was removed
          Value keep =
              buildAttentionKeep(nb, nloc, spec, probs.offset,
                                 maskArg >= 0 ? args[maskArg] : Value());
          ds = arith::SelectOp::create(nb, nloc, keep, ds, cst(0.0));
        }
        return SmallVector<Value>{ds};
      })[0];
}

/// dq, dk or dv of rlx.attention (see the file comment).
static FailureOr<SmallVector<Value>>
decomposeAttentionBackward(RewriterBase &rewriter, AttentionBackwardOp op,
                           const DecompositionOptions &) {
  AttentionSpec spec = getAttentionSpec(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  AttentionWrt wrt = op.getWrt();
  Value q = attentionView(rewriter, loc, spec, op.getQ());
  Value k = attentionView(rewriter, loc, spec, op.getK());
  Value dy = attentionView(rewriter, loc, spec, op.getDy());
  AffineMap scoreMap = attentionScoreMap(ctx);
  AffineMap rowsOfQ = attentionSeqMap(ctx, spec, kDimI);
  AffineMap rowsOfK = attentionSeqMap(ctx, spec, kDimJ);

  AttentionProbs probs =
      buildAttentionProbs(rewriter, loc, spec, q, k, op.getMask());

  Value grad;
  if (wrt == AttentionWrt::value) {
    // dv[b,h,j,d] = sum_i P[b,h,i,j] * dy[b,h,i,d].
    Value v = attentionView(rewriter, loc, spec, op.getV());
    grad = buildContraction(rewriter, loc, probs.probs, scoreMap, dy, rowsOfQ,
                            filledLike(rewriter, loc, v, 0.0), rowsOfK);
  } else {
    // dP[b,h,i,j] = sum_d dy[b,h,i,d] * v[b,h,j,d].
    Value v = attentionView(rewriter, loc, spec, op.getV());
    Value dP =
        buildContraction(rewriter, loc, dy, rowsOfQ, v, rowsOfK,
                         filledLike(rewriter, loc, probs.probs, 0.0), scoreMap);
    Value dS = buildScoreGradient(rewriter, loc, spec, probs, dP, op.getMask());
    if (wrt == AttentionWrt::query) // dq[b,h,i,d] = sum_j dS * k[b,h,j,d]
      grad = buildContraction(rewriter, loc, dS, scoreMap, k, rowsOfK,
                              filledLike(rewriter, loc, q, 0.0), rowsOfQ);
    else // dk[b,h,j,d] = sum_i dS * q[b,h,i,d]
      grad = buildContraction(rewriter, loc, dS, scoreMap, q, rowsOfQ,
                              filledLike(rewriter, loc, k, 0.0), rowsOfK);
  }
  return SmallVector<Value>{attentionUnview(rewriter, loc, spec, grad)};
}

using AttentionDecompositions = DecompositionList<
    Decomposition<AttentionBackwardOp, decomposeAttentionBackward>>;

void mlir::rlx::populateAttentionDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  AttentionDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachAttentionDecompositionModels(MLIRContext *ctx) {
  AttentionDecompositions::attachModels(ctx);
}
