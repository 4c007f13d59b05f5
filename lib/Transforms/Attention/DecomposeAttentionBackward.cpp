//===- DecomposeAttentionBackward.cpp - Attention gradients --------------===//
//
// rlx.attention_backward recomputes P = softmax(mask(softcap(scale q k^T)))
// with the forward lowering's code (AttentionUtils.h), then, per batch b and
// head h (every product a linalg.contract over (b,h,i,j,d) that indexes the
// operands in their own layout):
//
//   value:        dv = P^T dy = E^T (dy / l)   E = exp(Z - max_j Z), l = sum_j E
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
// With grouped-query heads the query side carries the group dim g
// (AttentionUtils.h) and dk, dv reduce over it as well as over i: the sum
// over each group of query heads.
//
// With attention-blocks (the default; FlashAttention-2's backward loop
// structure, buildAttentionBlocks in AttentionUtils.h) this runs per (batch,
// key/value head) in an scf.forall (threads; each iteration writes its own
// head's gradient) and per block of query rows in an scf.for: a block
// recomputes its [rows, Sk] scores and probabilities, then writes its rows of
// dq or adds its part to dk or dv (blocks in order: a fixed summation order,
// the same for any thread count). A causal block skips the keys none of its
// rows sees. Custom and rank-4 bias masks take the per-head form instead:
// with attention-per-head one (batch, key/value head) at a time in an scf.for
// nest, the [Sq, Sk] temporaries of one head (one group of G query heads).
//
//===----------------------------------------------------------------------===//
#include "Attention/AttentionUtils.h"
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::rlx;

/// dS[b,h,i,j] = scale * P * (dP - delta[b,h,i]) * capFactor * keep in one
/// elementwise generic (delta is the row reduction of dP * P).
static Value buildScoreGradient(OpBuilder &b, Location loc,
                                const AttentionSpec &spec,
                                const AttentionProbs &probs, Value dP,
                                Value mask) {
  Type elementType = cast<ShapedType>(dP.getType()).getElementType();
  int64_t rank = spec.scoreRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap row = identity.dropResults(rank - 1);

  // delta[b,h,[g,]i] = sum_j dP * P.
  Value delta = buildSums(b, loc, dP, {rank - 1},
                          {{dP, identity}, {probs.probs, identity}}, 1,
                          [](OpBuilder &nb, Location nloc, ValueRange args) {
                            return SmallVector<Value>{arith::MulFOp::create(
                                nb, nloc, args[0], args[1])};
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

/// dy[b,h,[g,]i,d] / l[b,h,[g,]i], the query rows of dy divided by the row
/// sums of exp(Z - max): dv = P^T dy = E^T (dy / l) divides [rows, D]
/// elements instead of the [rows, Sk] scores (the divide pass over P was a
/// twelfth of wrt=value's time).
static Value divideRowsOfQ(OpBuilder &b, Location loc,
                           const AttentionSpec &spec, Value dy, Value sums) {
  MLIRContext *ctx = b.getContext();
  AffineMap scoreMap = attentionScoreMap(ctx, spec);
  // Both maps without j (the last score dim), which neither reads.
  SmallVector<AffineMap> maps = compressUnusedDims(SmallVector<AffineMap>{
      attentionSeqMap(ctx, spec, kDimI),
      scoreMap.dropResults(scoreMap.getNumResults() - 1)});
  return buildGeneric(b, loc, {{dy, maps[0]}, {sums, maps[1]}},
                      {{emptyLike(b, loc, dy), maps[0]}},
                      [](OpBuilder &nb, Location nloc, ValueRange args) {
                        return SmallVector<Value>{
                            arith::DivFOp::create(nb, nloc, args[0], args[1])};
                      })[0];
}

/// dq, dk or dv from the views (any number of batches and heads).
/// `offset`, if given, is the diagonal of the index-generated masks (see
/// buildAttentionProbs); `accInit`, if given, is what dk or dv accumulate
/// into (a block of query rows adds its part), else they start from 0.
static Value buildAttentionGrad(OpBuilder &b, Location loc,
                                const AttentionSpec &spec, AttentionWrt wrt,
                                Value q, Value k, Value v, Value dy, Value mask,
                                bool viewV, Value offset = {},
                                Value accInit = {}) {
  MLIRContext *ctx = b.getContext();
  AffineMap scoreMap = attentionScoreMap(ctx, spec);
  AffineMap rowsOfQ = attentionSeqMap(ctx, spec, kDimI);
  AffineMap rowsOfK = attentionSeqMap(ctx, spec, kDimJ);
  bool normalize = wrt != AttentionWrt::value;
  AttentionProbs probs =
      buildAttentionProbs(b, loc, spec, q, k, mask, offset, normalize);
  if (viewV) // v is only needed from here on
    v = attentionView(b, loc, spec, v, AttentionRole::Value);
  // dv[b,h,j,d] = sum_{[g,]i} E * (dy[b,h,[g,]i,d] / l[b,h,[g,]i])
  if (wrt == AttentionWrt::value)
    return buildContraction(b, loc, probs.probs, scoreMap,
                            divideRowsOfQ(b, loc, spec, dy, probs.sums),
                            rowsOfQ,
                            accInit ? accInit : filledLike(b, loc, v, 0.0),
                            rowsOfK);
  // dP[b,h,[g,]i,j] = sum_d dy[b,h,[g,]i,d] * v[b,h,j,d].
  Value dP = buildContraction(b, loc, dy, rowsOfQ, v, rowsOfK,
                              filledLike(b, loc, probs.probs, 0.0), scoreMap);
  Value dS = buildScoreGradient(b, loc, spec, probs, dP, mask);
  // dq[b,h,[g,]i,d] = sum_j dS * k[b,h,j,d]
  if (wrt == AttentionWrt::query)
    return buildContraction(b, loc, dS, scoreMap, k, rowsOfK,
                            filledLike(b, loc, q, 0.0), rowsOfQ);
  // dk[b,h,j,d] = sum_{[g,]i} dS * q[b,h,[g,]i,d]
  return buildContraction(b, loc, dS, scoreMap, q, rowsOfQ,
                          accInit ? accInit : filledLike(b, loc, k, 0.0),
                          rowsOfK);
}

/// attention-per-head: the same computation one (batch, key/value head) at
/// a time in an scf.for nest, so that the [Sq, Sk] temporaries (S, P, dP,
/// dS) exist for one head (or one group of G query heads, which share the
/// key/value head whose gradient they sum into) at a time:
/// O(B*H*S*D + G*Sq*Sk) memory instead of O(B*H*Sq*Sk). Masks that are
/// operands and not shared by every head (custom, rank-4 bias) keep the
/// all-heads form.
static Value buildAttentionGradPerHead(OpBuilder &b, Location loc,
                                       const AttentionSpec &spec,
                                       AttentionWrt wrt, Value q, Value k,
                                       Value v, Value dy, Value mask) {
  Value like = wrt == AttentionWrt::query ? q
               : wrt == AttentionWrt::key ? k
                                          : v;
  // View dims: [B, H, S, D], or [B, S, H, D] when sequence-major (a split
  // query head (Hkv, G) has Hkv at the same place): the loops run over B and
  // H (Hkv).
  int64_t headDim = spec.seqMajor ? 2 : 1;
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value numBatches = tensor::DimOp::create(b, loc, like, 0);
  Value numHeads = tensor::DimOp::create(b, loc, like, headDim);
  Value init = emptyLike(b, loc, like);
  auto slice = [&](OpBuilder &nb, Location nloc, Value x, Value bi, Value hi) {
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, nb.getIndexAttr(0)), sizes,
        strides(rank, nb.getIndexAttr(1));
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(tensor::getMixedSize(nb, nloc, x, i));
    offsets[0] = bi;
    offsets[headDim] = hi;
    sizes[0] = nb.getIndexAttr(1);
    sizes[headDim] = nb.getIndexAttr(1);
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = shape[headDim] = 1;
    return tensor::ExtractSliceOp::create(nb, nloc, type.clone(shape), x,
                                          offsets, sizes, strides)
        .getResult();
  };
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, {c0, c0}, {numBatches, numHeads}, {c1, c1}, {init},
      [&](OpBuilder &nb, Location nloc, ValueRange ivs,
          ValueRange acc) -> scf::ValueVector {
        // The score shapes of one key/value head and its group.
        AttentionSpec headSpec = spec;
        headSpec.numHeads = spec.groupSize();
        headSpec.numKvHeads = 1;
        Value qh = slice(nb, nloc, q, ivs[0], ivs[1]);
        Value kh = slice(nb, nloc, k, ivs[0], ivs[1]);
        Value vh = slice(nb, nloc, v, ivs[0], ivs[1]);
        Value dyh = slice(nb, nloc, dy, ivs[0], ivs[1]);
        Value grad = buildAttentionGrad(nb, nloc, headSpec, wrt, qh, kh, vh,
                                        dyh, mask, /*viewV=*/false);
        int64_t rank = cast<ShapedType>(grad.getType()).getRank();
        SmallVector<OpFoldResult> offsets(rank, nb.getIndexAttr(0)), sizes,
            strides(rank, nb.getIndexAttr(1));
        for (int64_t i = 0; i < rank; ++i)
          sizes.push_back(tensor::getMixedSize(nb, nloc, grad, i));
        offsets[0] = ivs[0];
        offsets[headDim] = ivs[1];
        return {tensor::InsertSliceOp::create(nb, nloc, grad, acc[0], offsets,
                                              sizes, strides)
                    .getResult()};
      });
  return nest.results[0];
}

/// dq, dk or dv of rlx.attention (see the file comment).
static FailureOr<SmallVector<Value>>
decomposeAttentionBackward(RewriterBase &rewriter, AttentionBackwardOp op,
                           const DecompositionOptions &options) {
  AttentionSpec spec = getAttentionSpec(op);
  Location loc = op.getLoc();
  Value q = attentionView(rewriter, loc, spec, op.getQ(), AttentionRole::Query);
  Value k = attentionView(rewriter, loc, spec, op.getK(), AttentionRole::Key);
  Value dy =
      attentionView(rewriter, loc, spec, op.getDy(), AttentionRole::Output);
  Value mask = op.getMask();
  bool sharedMask = !mask || (spec.maskKind != MaskKind::custom &&
                              cast<ShapedType>(mask.getType()).getRank() == 2);
  Value grad;
  if (options.attentionBlocks && attentionBlocksApply(spec, mask)) {
    AttentionWrt wrt = op.getWrt();
    Value v =
        attentionView(rewriter, loc, spec, op.getV(), AttentionRole::Value);
    Value like = wrt == AttentionWrt::query ? q
                 : wrt == AttentionWrt::key ? k
                                            : v;
    AttentionRole role = wrt == AttentionWrt::query ? AttentionRole::Query
                         : wrt == AttentionWrt::key ? AttentionRole::Key
                                                    : AttentionRole::Value;
    grad = buildAttentionBlocks(
        rewriter, loc, spec, q, k, v, dy, mask, emptyLike(rewriter, loc, like),
        role, options.attentionBlockRows,
        [&](OpBuilder &b, Location l, const AttentionBlock &blk, Value acc) {
          return buildAttentionGrad(b, l, blk.spec, wrt, blk.q, blk.k, blk.v,
                                    blk.dy, blk.mask, /*viewV=*/false,
                                    blk.offset, acc);
        });
  } else if (options.attentionPerHead && sharedMask)
    grad = buildAttentionGradPerHead(
        rewriter, loc, spec, op.getWrt(), q, k,
        attentionView(rewriter, loc, spec, op.getV(), AttentionRole::Value), dy,
        mask);
  else
    grad = buildAttentionGrad(rewriter, loc, spec, op.getWrt(), q, k, op.getV(),
                              dy, mask, /*viewV=*/true);
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
