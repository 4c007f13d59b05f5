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
  spec.numKvHeads = op.getKvHeads();
  spec.headDim = op.getHeadDimAttr().getInt();
  spec.valueDim = op.getValueDim();
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

/// The position of the iteration dim `dim` (the group dim g follows h).
static unsigned dimPos(const AttentionSpec &spec, AttentionDim dim) {
  return dim <= kDimH || !spec.grouped() ? dim : dim + 1;
}

Value mlir::rlx::attentionView(OpBuilder &b, Location loc,
                               const AttentionSpec &spec, Value x,
                               AttentionRole role) {
  bool querySide =
      role == AttentionRole::Query || role == AttentionRole::Output;
  bool split = querySide && spec.grouped();
  if (!spec.seqMajor && !split)
    return x;
  int64_t heads = querySide ? spec.numHeads : spec.numKvHeads;
  int64_t dim = role == AttentionRole::Query || role == AttentionRole::Key
                    ? spec.headDim
                    : spec.valueDim;
  // The expanded dims' sizes: H, or (Hkv, G) for a split query head.
  SmallVector<int64_t> headSizes =
      split ? SmallVector<int64_t>{spec.numKvHeads, spec.groupSize()}
            : SmallVector<int64_t>{heads};
  auto type = cast<RankedTensorType>(x.getType());
  // The dim that is expanded: H*D (seq-major) or H (head-major). A dynamic
  // one has its attribute-given size by the verifier's contract; make it
  // static so the expansion is fully static.
  int64_t expanded = spec.seqMajor ? 2 : 1;
  int64_t expandedSize =
      spec.seqMajor ? heads * dim : static_cast<int64_t>(heads);
  if (type.isDynamicDim(expanded)) {
    SmallVector<int64_t> shape(type.getShape());
    shape[expanded] = expandedSize;
    type = type.clone(shape);
    x = tensor::CastOp::create(b, loc, type, x);
  }
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    ReassociationIndices group;
    if (d != expanded) {
      group.push_back(shape.size());
      shape.push_back(type.getDimSize(d));
      sizes.push_back(tensor::getMixedSize(b, loc, x, d));
    } else {
      SmallVector<int64_t> parts(headSizes);
      if (spec.seqMajor)
        parts.push_back(dim);
      for (int64_t part : parts) {
        group.push_back(shape.size());
        shape.push_back(part);
        sizes.push_back(b.getIndexAttr(part));
      }
    }
    groups.push_back(group);
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), x, groups,
                                       sizes);
}

Value mlir::rlx::attentionUnview(OpBuilder &b, Location loc,
                                 const AttentionSpec &spec, Value view) {
  // Undo attentionView: a rank-5 view is a split query head; a rank-4 one is
  // a view only in the sequence-major layout.
  int64_t rank = cast<ShapedType>(view.getType()).getRank();
  SmallVector<ReassociationIndices> groups;
  if (rank == 5)
    groups = spec.seqMajor
                 ? SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}}
                 : SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}};
  else if (spec.seqMajor)
    groups = {{0}, {1}, {2, 3}};
  else
    return view;
  return tensor::CollapseShapeOp::create(b, loc, view, groups);
}

Value mlir::rlx::attentionOutputInit(OpBuilder &b, Location loc,
                                     const AttentionSpec &spec, Value qView) {
  // Every view has its head dim last.
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, qView);
  sizes.back() = b.getIndexAttr(spec.valueDim);
  Type elementType = cast<ShapedType>(qView.getType()).getElementType();
  return filled(b, loc, tensor::EmptyOp::create(b, loc, sizes, elementType),
                0.0);
}

AffineMap mlir::rlx::attentionSeqMap(MLIRContext *ctx,
                                     const AttentionSpec &spec,
                                     AttentionDim seq) {
  auto d = [&](AttentionDim i) {
    return getAffineDimExpr(dimPos(spec, i), ctx);
  };
  // The query side has the group dim g right after h (its view splits H
  // into (Hkv, G) in place).
  SmallVector<AffineExpr> heads = {d(kDimH)};
  if (seq == kDimI && spec.grouped())
    heads.push_back(getAffineDimExpr(kDimH + 1, ctx));
  SmallVector<AffineExpr> exprs = {d(kDimB)};
  if (spec.seqMajor) {
    exprs.push_back(d(seq));
    llvm::append_range(exprs, heads);
  } else {
    llvm::append_range(exprs, heads);
    exprs.push_back(d(seq));
  }
  exprs.push_back(d(kDimD));
  return AffineMap::get(spec.scoreRank() + 1, 0, exprs, ctx);
}

AffineMap mlir::rlx::attentionScoreMap(MLIRContext *ctx,
                                       const AttentionSpec &spec) {
  return AffineMap::getMultiDimIdentityMap(spec.scoreRank() + 1, ctx)
      .dropResults(dimPos(spec, kDimD));
}

AffineMap mlir::rlx::attentionMaskMap(MLIRContext *ctx,
                                      const AttentionSpec &spec, Value mask) {
  auto type = cast<ShapedType>(mask.getType());
  unsigned rank = spec.scoreRank();
  auto d = [&](AttentionDim i) {
    return getAffineDimExpr(dimPos(spec, i), ctx);
  };
  if (type.getRank() == 2) {
    // custom [B, Sk]; bias [Sq, Sk].
    if (spec.maskKind == MaskKind::custom)
      return AffineMap::get(rank, 0, {d(kDimB), d(kDimJ)}, ctx);
    return AffineMap::get(rank, 0, {d(kDimI), d(kDimJ)}, ctx);
  }
  // [B, H, Sq, Sk] over the query heads: head h * G + g with groups.
  AffineExpr head = d(kDimH);
  if (spec.grouped())
    head = head * spec.groupSize() + getAffineDimExpr(kDimH + 1, ctx);
  SmallVector<AffineExpr> exprs = {d(kDimB), head, d(kDimI), d(kDimJ)};
  for (unsigned i = 0; i < 4; ++i)
    if (spec.maskKind == MaskKind::bias && type.getDimSize(i) == 1)
      exprs[i] = getAffineConstantExpr(0, ctx);
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value mlir::rlx::buildAttentionKeep(OpBuilder &b, Location loc,
                                    const AttentionSpec &spec, Value offset,
                                    Value maskValue) {
  if (spec.maskKind == MaskKind::custom) // mask >= 0.5
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, maskValue,
                                 floatConst(b, loc, maskValue.getType(), 0.5));
  // causal: j <= i + off; sliding_window also i + off - window <= j.
  Value i = linalg::IndexOp::create(b, loc, dimPos(spec, kDimI));
  Value j = linalg::IndexOp::create(b, loc, dimPos(spec, kDimJ));
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
  AffineMap identity = b.getMultiDimIdentityMap(spec.scoreRank());
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

  // Sizes: B and Sq from q, Sk from k; H (or Hkv and G) static.
  OpFoldResult batch = tensor::getMixedSize(b, loc, qView, 0);
  OpFoldResult sq = tensor::getMixedSize(
      b, loc, qView, seqDim + (spec.seqMajor || !spec.grouped() ? 0 : 1));
  OpFoldResult sk = tensor::getMixedSize(b, loc, kView, seqDim);
  Value offset =
      arith::SubIOp::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, sk),
                            getValueOrCreateConstantIndexOp(b, loc, sq));

  // S[b,h,[g,]i,j] = sum_d q[b,h,[g,]i,d] * k[b,h,j,d].
  SmallVector<OpFoldResult> scoreSizes = {batch,
                                          b.getIndexAttr(spec.numKvHeads)};
  if (spec.grouped())
    scoreSizes.push_back(b.getIndexAttr(spec.groupSize()));
  scoreSizes.append({sq, sk});
  Value scoresInit = filled(
      b, loc, tensor::EmptyOp::create(b, loc, scoreSizes, elementType), 0.0);
  Value scores =
      buildContraction(b, loc, qView, attentionSeqMap(ctx, spec, kDimI), kView,
                       attentionSeqMap(ctx, spec, kDimJ), scoresInit,
                       attentionScoreMap(ctx, spec));

  // Z = mask(softcap(scale * S)).
  Value z = buildMaskedScores(b, loc, spec, scores, offset, mask);

  // P = softmax_j(Z): m = max_j Z, l = sum_j exp(Z - m), P = exp(Z - m) / l.
  Value probs = buildSoftmax(b, loc, z, /*axis=*/spec.scoreRank() - 1);
  return {scores, probs, offset};
}
