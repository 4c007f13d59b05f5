//===- AttentionUtils.cpp - shared code of the attention rewrites --------===//
#include "Attention/AttentionUtils.h"

#include "Common/Builders.h"
#include "Softmax/SoftmaxUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

/// The value a removed score is replaced by.
static constexpr double kMaskedScore = -1e9;

template <typename OpTy> static AttentionSpec getSpec(OpTy op) {
  AttentionSpec spec;
  spec.numHeads = op.getNumHeadsAttr().getInt();
  spec.headDim = op.getHeadDimAttr().getInt();
  spec.maskKind = op.getMaskKind();
  if (IntegerAttr window = op.getWindowAttr())
    spec.window = window.getInt();
  spec.scale = op.getScaleAttr()
                   ? op.getScaleAttr().getValueAsDouble()
                   : 1.0 / std::sqrt(static_cast<double>(spec.headDim));
  if (FloatAttr softcap = op.getSoftcapAttr())
    spec.softcap = softcap.getValueAsDouble();
  spec.seqMajor = cast<ShapedType>(op.getQ().getType()).getRank() == 3;
  return spec;
}

AttentionSpec mlir::rlx::getAttentionSpec(AttentionOp op) {
  return getSpec(op);
}

AttentionSpec mlir::rlx::getAttentionSpec(AttentionBackwardOp op) {
  return getSpec(op);
}

Value mlir::rlx::attentionView(OpBuilder &b, Location loc,
                               const AttentionSpec &spec, Value x) {
  if (!spec.seqMajor)
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  int64_t width = spec.numHeads * spec.headDim;
  // A dynamic H*D dim is width by the verifier's contract; make it static so
  // the expansion into (H, D) is fully static.
  if (type.isDynamicDim(2)) {
    type = RankedTensorType::get(
        {type.getDimSize(0), type.getDimSize(1), width}, type.getElementType());
    x = tensor::CastOp::create(b, loc, type, x);
  }
  auto viewType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1), spec.numHeads, spec.headDim},
      type.getElementType());
  SmallVector<OpFoldResult> shape = {
      tensor::getMixedSize(b, loc, x, 0), tensor::getMixedSize(b, loc, x, 1),
      b.getIndexAttr(spec.numHeads), b.getIndexAttr(spec.headDim)};
  return tensor::ExpandShapeOp::create(
      b, loc, viewType, x, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}},
      shape);
}

Value mlir::rlx::attentionUnview(OpBuilder &b, Location loc,
                                 const AttentionSpec &spec, Value view) {
  if (!spec.seqMajor)
    return view;
  return tensor::CollapseShapeOp::create(
      b, loc, view, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
}

AffineMap mlir::rlx::attentionSeqMap(MLIRContext *ctx,
                                     const AttentionSpec &spec,
                                     AttentionDim seq) {
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> exprs =
      spec.seqMajor
          ? SmallVector<AffineExpr>{d(kDimB), d(seq), d(kDimH), d(kDimD)}
          : SmallVector<AffineExpr>{d(kDimB), d(kDimH), d(seq), d(kDimD)};
  return AffineMap::get(5, 0, exprs, ctx);
}

AffineMap mlir::rlx::attentionScoreMap(MLIRContext *ctx) {
  return AffineMap::getMultiDimIdentityMap(5, ctx).dropResults(kDimD);
}

AffineMap mlir::rlx::attentionMaskMap(MLIRContext *ctx,
                                      const AttentionSpec &spec, Value mask) {
  auto type = cast<ShapedType>(mask.getType());
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  if (type.getRank() == 2) {
    // custom [B, Sk]; bias [Sq, Sk].
    if (spec.maskKind == MaskKind::custom)
      return AffineMap::get(4, 0, {d(0), d(3)}, ctx);
    return AffineMap::get(4, 0, {d(2), d(3)}, ctx);
  }
  SmallVector<AffineExpr> exprs;
  for (unsigned i = 0; i < 4; ++i)
    exprs.push_back(spec.maskKind == MaskKind::bias && type.getDimSize(i) == 1
                        ? getAffineConstantExpr(0, ctx)
                        : d(i));
  return AffineMap::get(4, 0, exprs, ctx);
}

Value mlir::rlx::buildAttentionKeep(OpBuilder &b, Location loc,
                                    const AttentionSpec &spec, Value offset,
                                    Value maskValue) {
  if (spec.maskKind == MaskKind::custom) // mask >= 0.5
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, maskValue,
                                 floatConst(b, loc, maskValue.getType(), 0.5));
  // causal: j <= i + off; sliding_window also i + off - window <= j.
  Value i = linalg::IndexOp::create(b, loc, 2);
  Value j = linalg::IndexOp::create(b, loc, 3);
  Value diagonal = arith::AddIOp::create(b, loc, i, offset);
  Value keep =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, j, diagonal);
  if (spec.maskKind == MaskKind::sliding_window) {
    Value lowest = arith::SubIOp::create(
        b, loc, diagonal, arith::ConstantIndexOp::create(b, loc, spec.window));
    Value inWindow =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, j, lowest);
    keep = arith::AndIOp::create(b, loc, keep, inWindow);
  }
  return keep;
}

/// Z = mask(softcap(scale * S)): one elementwise generic over (b, h, i, j)
/// reading the mask operand, if any, through its (broadcasting) map.
static Value buildMaskedScores(OpBuilder &b, Location loc,
                               const AttentionSpec &spec, Value scores,
                               Value offset, Value mask) {
  Type elementType = cast<ShapedType>(scores.getType()).getElementType();
  AffineMap identity = b.getMultiDimIdentityMap(4);
  SmallVector<GenericOperand> inputs = {{scores, identity}};
  if (mask)
    inputs.push_back({mask, attentionMaskMap(b.getContext(), spec, mask)});
  return buildGeneric(
      b, loc, inputs, {{emptyLike(b, loc, scores), identity}},
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value z = arith::MulFOp::create(
            nb, nloc, args[0], floatConst(nb, nloc, elementType, spec.scale));
        if (spec.softcap) { // c * tanh(z / c)
          Value c = floatConst(nb, nloc, elementType, *spec.softcap);
          Value t = math::TanhOp::create(nb, nloc,
                                         arith::DivFOp::create(nb, nloc, z, c));
          z = arith::MulFOp::create(nb, nloc, c, t);
        }
        if (spec.maskKind == MaskKind::bias) {
          z = arith::AddFOp::create(nb, nloc, z, args[1]);
        } else if (spec.hasReplacingMask()) {
          Value keep = buildAttentionKeep(nb, nloc, spec, offset,
                                          mask ? args[1] : Value());
          z = arith::SelectOp::create(
              nb, nloc, keep, z,
              floatConst(nb, nloc, elementType, kMaskedScore));
        }
        return SmallVector<Value>{z};
      })[0];
}

AttentionProbs mlir::rlx::buildAttentionProbs(OpBuilder &b, Location loc,
                                              const AttentionSpec &spec,
                                              Value qView, Value kView,
                                              Value mask) {
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<ShapedType>(qView.getType()).getElementType();
  unsigned seqDim = spec.seqMajor ? 1 : 2;

  // Sizes: B and Sq from q, Sk from k; H static.
  OpFoldResult batch = tensor::getMixedSize(b, loc, qView, 0);
  OpFoldResult sq = tensor::getMixedSize(b, loc, qView, seqDim);
  OpFoldResult sk = tensor::getMixedSize(b, loc, kView, seqDim);
  Value offset =
      arith::SubIOp::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, sk),
                            getValueOrCreateConstantIndexOp(b, loc, sq));

  // S[b,h,i,j] = sum_d q[b,h,i,d] * k[b,h,j,d].
  Value scoresInit = filled(
      b, loc,
      tensor::EmptyOp::create(b, loc,
                              SmallVector<OpFoldResult>{
                                  batch, b.getIndexAttr(spec.numHeads), sq, sk},
                              elementType),
      0.0);
  Value scores = buildContraction(
      b, loc, qView, attentionSeqMap(ctx, spec, kDimI), kView,
      attentionSeqMap(ctx, spec, kDimJ), scoresInit, attentionScoreMap(ctx));

  // Z = mask(softcap(scale * S)).
  Value z = buildMaskedScores(b, loc, spec, scores, offset, mask);

  // P = softmax_j(Z): m = max_j Z, l = sum_j exp(Z - m), P = exp(Z - m) / l.
  Value probs = buildSoftmax(b, loc, z, /*axis=*/3);
  return {scores, probs, offset};
}
