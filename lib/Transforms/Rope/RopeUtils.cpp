//===- RopeUtils.cpp - the rotary-embedding rotation, shared --------------===//
#include "Rope/RopeUtils.h"

#include "Common/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

Value mlir::rlx::buildRopeRotation(OpBuilder &b, Location loc, Value x,
                                   Value cos, Value sin, int64_t headDim,
                                   int64_t nRot, bool inverse) {
  if (nRot == 0)
    return x;
  int64_t rank = cast<ShapedType>(x.getType()).getRank();
  int64_t half = nRot / 2;
  return buildElementwise(
      b, loc, {x}, [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        auto cmp = [&](arith::CmpIPredicate p, Value a, Value c) -> Value {
          return arith::CmpIOp::create(nb, l, p, a, c);
        };
        auto select = [&](Value c, Value t, Value f) -> Value {
          return arith::SelectOp::create(nb, l, c, t, f);
        };
        Value zero = arith::ConstantIndexOp::create(nb, l, 0),
              halfC = arith::ConstantIndexOp::create(nb, l, half);
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d)
          idx.push_back(linalg::IndexOp::create(nb, l, d));
        Value k = idx.back(), s = idx[rank - 2];
        // Position within the head, its half and whether it rotates.
        Value i = arith::RemUIOp::create(
            nb, l, k, arith::ConstantIndexOp::create(nb, l, headDim));
        Value first = cmp(arith::CmpIPredicate::ult, i, halfC);
        Value rotated = cmp(arith::CmpIPredicate::ult, i,
                            arith::ConstantIndexOp::create(nb, l, nRot));
        // cos/sin column j (0 when not rotated) and the partner element
        // (x itself when not rotated): always in range.
        Value j = select(first, i, arith::SubIOp::create(nb, l, i, halfC));
        j = select(rotated, j, zero);
        Value partner = select(first, arith::AddIOp::create(nb, l, k, halfC),
                               arith::SubIOp::create(nb, l, k, halfC));
        idx.back() = select(rotated, partner, k);
        Value xp = tensor::ExtractOp::create(nb, l, x, idx);
        Value c = tensor::ExtractOp::create(nb, l, cos, ValueRange{s, j});
        Value t = tensor::ExtractOp::create(nb, l, sin, ValueRange{s, j});
        // First half: x*c - xp*t; second half: x*c + xp*t (signs swap for
        // the inverse rotation).
        Value xc = arith::MulFOp::create(nb, l, args[0], c);
        Value xpt = arith::MulFOp::create(nb, l, xp, t);
        Value minus = arith::SubFOp::create(nb, l, xc, xpt);
        Value plus = arith::AddFOp::create(nb, l, xc, xpt);
        Value y =
            inverse ? select(first, plus, minus) : select(first, minus, plus);
        return select(rotated, y, args[0]);
      });
}

/// x [.., S, H*D] as [.., S, H, D].
static Value splitHeads(OpBuilder &b, Location loc, Value x, int64_t headDim) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  SmallVector<int64_t> shape(type.getShape().drop_back());
  int64_t last = type.getShape().back();
  OpFoldResult heads;
  if (ShapedType::isDynamic(last)) {
    heads = arith::DivUIOp::create(
                b, loc, getValueOrCreateConstantIndexOp(b, loc, sizes.back()),
                arith::ConstantIndexOp::create(b, loc, headDim))
                .getResult();
    shape.push_back(ShapedType::kDynamic);
  } else {
    heads = b.getIndexAttr(last / headDim);
    shape.push_back(last / headDim);
  }
  shape.push_back(headDim);
  sizes.back() = heads;
  sizes.push_back(b.getIndexAttr(headDim));
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < rank - 1; ++d)
    reassociation.push_back({d});
  reassociation.push_back({rank - 1, rank});
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x,
      reassociation, sizes);
}

/// Columns [offset, offset + width) of the last dim of `x`.
static Value lastDimSlice(OpBuilder &b, Location loc, Value x, int64_t offset,
                          int64_t width) {
  int64_t rank = cast<ShapedType>(x.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  offsets.back() = b.getIndexAttr(offset);
  sizes.back() = b.getIndexAttr(width);
  return tensor::ExtractSliceOp::create(b, loc, x, offsets, sizes, strides);
}

std::pair<Value, Value>
mlir::rlx::buildRopeTableGrads(OpBuilder &b, Location loc, Value x, Value u,
                               Value cos, int64_t headDim, int64_t nRot,
                               bool inverse) {
  int64_t half = nRot / 2;
  if (half == 0)
    return {filledLike(b, loc, cos, 0.0), filledLike(b, loc, cos, 0.0)};
  Value x4 = splitHeads(b, loc, x, headDim);
  Value u4 = splitHeads(b, loc, u, headDim);
  Value xa = lastDimSlice(b, loc, x4, 0, half);
  Value xb = lastDimSlice(b, loc, x4, half, half);
  Value ua = lastDimSlice(b, loc, u4, 0, half);
  Value ub = lastDimSlice(b, loc, u4, half, half);
  // Loops (.., s, head, j); the table dims (s, j) are parallel, the batch
  // dims and heads reduce.
  int64_t loops = cast<ShapedType>(xa.getType()).getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(loops, ctx);
  AffineMap table = AffineMap::get(
      loops, 0, {b.getAffineDimExpr(loops - 3), b.getAffineDimExpr(loops - 1)},
      ctx);
  // [S, h] sums, then into [S, D/2] zeros (columns >= h do not rotate).
  SmallVector<OpFoldResult> cosSizes = tensor::getMixedSizes(b, loc, cos);
  SmallVector<OpFoldResult> sums = {cosSizes[0], b.getIndexAttr(half)};
  Type elementType = getElementTypeOrSelf(cos.getType());
  Value init =
      filled(b, loc, tensor::EmptyOp::create(b, loc, sums, elementType), 0.0);
  SmallVector<Value> grads = buildGeneric(
      b, loc, {{xa, id}, {xb, id}, {ua, id}, {ub, id}},
      {{init, table}, {init, table}},
      [&](OpBuilder &nb, Location l, ValueRange a) -> SmallVector<Value> {
        auto mul = [&](Value p, Value q) -> Value {
          return arith::MulFOp::create(nb, l, p, q);
        };
        Value dc =
            arith::AddFOp::create(nb, l, mul(a[2], a[0]), mul(a[3], a[1]));
        Value ds = inverse ? arith::SubFOp::create(nb, l, mul(a[2], a[1]),
                                                   mul(a[3], a[0]))
                           : arith::SubFOp::create(nb, l, mul(a[3], a[0]),
                                                   mul(a[2], a[1]));
        return {arith::AddFOp::create(nb, l, a[4], dc),
                arith::AddFOp::create(nb, l, a[5], ds)};
      });
  auto widen = [&](Value g) -> Value {
    SmallVector<OpFoldResult> zeros(2, b.getIndexAttr(0)),
        ones(2, b.getIndexAttr(1));
    Value full = filledLike(b, loc, cos, 0.0);
    return tensor::InsertSliceOp::create(b, loc, g, full, zeros, sums, ones);
  };
  return {widen(grads[0]), widen(grads[1])};
}
