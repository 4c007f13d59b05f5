//===- AttentionUtils.cpp - shared code of the attention rewrites --------===//
#include "Attention/AttentionUtils.h"

#include "Common/Builders.h"
#include "Softmax/SoftmaxUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
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
                                              Value mask, Value offset,
                                              bool normalize) {
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<ShapedType>(qView.getType()).getElementType();
  unsigned seqDim = spec.seqMajor ? 1 : 2;

  // Sizes: B and Sq from q, Sk from k; H (or Hkv and G) static.
  OpFoldResult batch = tensor::getMixedSize(b, loc, qView, 0);
  OpFoldResult sq = tensor::getMixedSize(
      b, loc, qView, seqDim + (spec.seqMajor || !spec.grouped() ? 0 : 1));
  OpFoldResult sk = tensor::getMixedSize(b, loc, kView, seqDim);
  if (!offset)
    offset = arith::SubIOp::create(b, loc,
                                   getValueOrCreateConstantIndexOp(b, loc, sk),
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
  int64_t axis = spec.scoreRank() - 1;
  if (!normalize) {
    SoftmaxParts parts = buildSoftmaxParts(b, loc, z, axis);
    return {scores, parts.exp, offset, parts.sum};
  }
  return {scores, buildSoftmax(b, loc, z, axis), offset, Value()};
}

bool mlir::rlx::attentionBlocksApply(const AttentionSpec &spec, Value mask) {
  return !mask || (spec.maskKind != MaskKind::custom &&
                   cast<ShapedType>(mask.getType()).getRank() == 2);
}

/// The query rows of a block: its [rows, Sk] tiles (the scores of the G
/// query heads of a group together) hold about 32K elements (128 KiB in
/// f32), so that they stay in the L2 cache while the block's products and
/// row passes reuse them; at least 16 rows (the reduction of the dk and dv
/// products) and at most 128. An explicit `option` wins.
static int64_t pickBlockRows(int64_t sk, int64_t groupSize, int64_t option) {
  if (option > 0)
    return option;
  if (ShapedType::isDynamic(sk))
    return 64;
  int64_t rows = (int64_t(1) << 15) / std::max<int64_t>(1, sk * groupSize);
  return std::clamp<int64_t>(rows / 8 * 8, 16, 128);
}

/// `x` with its dim `dim` restricted to [start, start + size).
static Value sliceDim(OpBuilder &b, Location loc, Value x, int64_t dim,
                      OpFoldResult start, OpFoldResult size) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      sizes = tensor::getMixedSizes(b, loc, x),
      strides(rank, b.getIndexAttr(1));
  offsets[dim] = start;
  sizes[dim] = size;
  SmallVector<int64_t> shape(type.getShape());
  std::optional<int64_t> staticSize = getConstantIntValue(size);
  shape[dim] = staticSize ? *staticSize : ShapedType::kDynamic;
  return tensor::ExtractSliceOp::create(b, loc, type.clone(shape), x, offsets,
                                        sizes, strides)
      .getResult();
}

/// Inserts `part` into `into` at `start` of its dim `dim`.
static Value insertDim(OpBuilder &b, Location loc, Value part, Value into,
                       int64_t dim, OpFoldResult start) {
  int64_t rank = cast<ShapedType>(into.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      sizes = tensor::getMixedSizes(b, loc, part),
      strides(rank, b.getIndexAttr(1));
  offsets[dim] = start;
  return tensor::InsertSliceOp::create(b, loc, part, into, offsets, sizes,
                                       strides)
      .getResult();
}

Value mlir::rlx::buildAttentionBlocks(OpBuilder &b, Location loc,
                                      const AttentionSpec &spec, Value q,
                                      Value k, Value v, Value dy, Value mask,
                                      Value result, AttentionRole role,
                                      int64_t blockRowsOption,
                                      AttentionBlockBody body) {
  bool querySide =
      role == AttentionRole::Query || role == AttentionRole::Output;
  // View dims: [B, H, S, D], or [B, S, H, D] when sequence-major (a split
  // query head (Hkv, G) has Hkv at the same place): the forall runs over B
  // and H (Hkv). The sequence dim of the query-side views ([B, S, Hkv, G, D]
  // or [B, Hkv, G, S, D] when grouped) and of k and v.
  int64_t headDim = spec.seqMajor ? 2 : 1;
  int64_t seqDim = spec.seqMajor ? 1 : (spec.grouped() ? 3 : 2);
  int64_t kSeqDim = spec.seqMajor ? 1 : 2;
  int64_t resultSeqDim = querySide ? seqDim : kSeqDim;
  bool causal = spec.maskKind == MaskKind::causal;
  AttentionSpec headSpec = spec;
  headSpec.numHeads = spec.groupSize();
  headSpec.numKvHeads = 1;
  int64_t staticSq = cast<ShapedType>(q.getType()).getDimSize(seqDim);
  int64_t rows =
      pickBlockRows(cast<ShapedType>(k.getType()).getDimSize(kSeqDim),
                    spec.groupSize(), blockRowsOption);
  if (!ShapedType::isDynamic(staticSq) && staticSq > 0)
    rows = std::min(rows, staticSq);

  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  auto headSlice = [&](OpBuilder &nb, Location nloc, Value x, Value bi,
                       Value hi) {
    return sliceDim(nb, nloc, sliceDim(nb, nloc, x, 0, bi, one), headDim, hi,
                    one);
  };
  auto forall = scf::ForallOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{tensor::getMixedSize(b, loc, result, 0),
                             b.getIndexAttr(spec.numKvHeads)},
      ValueRange{result}, std::nullopt);
  Value bi = forall.getInductionVars()[0], hi = forall.getInductionVars()[1];
  Value out = forall.getRegionIterArgs()[0];
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  Value qh = headSlice(b, loc, q, bi, hi);
  Value kh = headSlice(b, loc, k, bi, hi);
  Value vh = headSlice(b, loc, v, bi, hi);
  Value dyh = dy ? headSlice(b, loc, dy, bi, hi) : Value();
  Value headOut = headSlice(b, loc, out, bi, hi);
  if (!querySide)
    headOut = filled(b, loc, headOut, 0.0);

  Value sq = tensor::DimOp::create(b, loc, qh, seqDim);
  Value sk = tensor::DimOp::create(b, loc, kh, kSeqDim);
  Value offset0 = arith::SubIOp::create(b, loc, sk, sq);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, rows);
  Value end = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, sq, step), step);

  // One block of `size` rows from row i0.
  auto block = [&](OpBuilder &nb, Location nloc, Value i0, OpFoldResult size,
                   Value acc) -> Value {
    AttentionBlock blk;
    blk.spec = headSpec;
    blk.q = sliceDim(nb, nloc, qh, seqDim, i0, size);
    blk.dy = dyh ? sliceDim(nb, nloc, dyh, seqDim, i0, size) : Value();
    blk.mask = mask ? sliceDim(nb, nloc, mask, 0, i0, size) : Value();
    blk.offset = arith::AddIOp::create(nb, nloc, offset0, i0);
    blk.k = kh;
    blk.v = vh;
    Value keyEnd;
    if (causal) {
      // Row i sees keys j <= i + offset: the block's last row sees the most.
      // Rounded up to 32 (the micro-kernels' register tile) so that their
      // edge tiles are empty; all keys when the first row sees none (a
      // fully masked row is uniform over every key).
      Value sizeV = getValueOrCreateConstantIndexOp(nb, nloc, size);
      Value last = arith::AddIOp::create(nb, nloc, blk.offset, sizeV);
      Value c31 = arith::ConstantIndexOp::create(nb, nloc, 31);
      Value c32 = arith::ConstantIndexOp::create(nb, nloc, 32);
      Value rounded = arith::MulIOp::create(
          nb, nloc,
          arith::DivSIOp::create(
              nb, nloc, arith::AddIOp::create(nb, nloc, last, c31), c32),
          c32);
      Value seen = arith::MinSIOp::create(nb, nloc, sk, rounded);
      Value noneSeen = arith::CmpIOp::create(
          nb, nloc, arith::CmpIPredicate::slt, blk.offset, c0);
      keyEnd = arith::SelectOp::create(nb, nloc, noneSeen, sk, seen);
      blk.k = sliceDim(nb, nloc, kh, kSeqDim, zero, keyEnd);
      blk.v = sliceDim(nb, nloc, vh, kSeqDim, zero, keyEnd);
    }
    if (querySide)
      return insertDim(nb, nloc, body(nb, nloc, blk, Value()), acc,
                       resultSeqDim, i0);
    if (!causal)
      return body(nb, nloc, blk, acc);
    Value part = sliceDim(nb, nloc, acc, resultSeqDim, zero, keyEnd);
    return insertDim(nb, nloc, body(nb, nloc, blk, part), acc, resultSeqDim,
                     zero);
  };
  auto loop = scf::ForOp::create(
      b, loc, c0, end, step, ValueRange{headOut},
      [&](OpBuilder &nb, Location nloc, Value i0, ValueRange iterArgs) {
        scf::YieldOp::create(
            nb, nloc, block(nb, nloc, i0, nb.getIndexAttr(rows), iterArgs[0]));
      });
  Value headResult = loop.getResult(0);
  if (ShapedType::isDynamic(staticSq) || staticSq % rows != 0) {
    // The last partial block (static when Sq is; maybe empty when not).
    OpFoldResult rest =
        ShapedType::isDynamic(staticSq)
            ? OpFoldResult(arith::SubIOp::create(b, loc, sq, end).getResult())
            : OpFoldResult(b.getIndexAttr(staticSq % rows));
    headResult = block(b, loc, end, rest, headResult);
  }

  int64_t rank = cast<RankedTensorType>(headResult.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, zero),
      sizes = tensor::getMixedSizes(b, loc, headResult), strides(rank, one);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  offsets[0] = bi;
  offsets[headDim] = hi;
  tensor::ParallelInsertSliceOp::create(b, loc, headResult, out, offsets, sizes,
                                        strides);
  return forall.getResult(0);
}
