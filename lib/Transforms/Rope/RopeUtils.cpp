//===- RopeUtils.cpp - the rotary-embedding rotation, shared --------------===//
#include "Rope/RopeUtils.h"

#include "Common/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// The reassociation between rank `rank` and rank + 1 whose last dim is the
/// pair (rank - 1, rank): [.., a*b] <-> [.., a, b].
static SmallVector<ReassociationIndices> splitLastDim(int64_t rank) {
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < rank - 1; ++d)
    reassociation.push_back({d});
  reassociation.push_back({rank - 1, rank});
  return reassociation;
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
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x,
      splitLastDim(rank), sizes);
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

/// The maps of a generic over the loops (.., s, head, j) of a head half
/// [.., S, H, h]: the identity, and the tables' (s, j).
static std::pair<AffineMap, AffineMap> headHalfMaps(OpBuilder &b, Value half) {
  int64_t loops = cast<ShapedType>(half.getType()).getRank();
  AffineMap id = b.getMultiDimIdentityMap(loops);
  AffineMap table = AffineMap::get(
      loops, 0, {b.getAffineDimExpr(loops - 3), b.getAffineDimExpr(loops - 1)},
      b.getContext());
  return {id, table};
}

/// `x4` [.., S, H, D] with the columns [offset, offset + width) of its last
/// dim replaced by `part`.
static Value insertLastDimSlice(OpBuilder &b, Location loc, Value part,
                                Value x4, int64_t offset) {
  int64_t rank = cast<ShapedType>(x4.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, part);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  offsets.back() = b.getIndexAttr(offset);
  return tensor::InsertSliceOp::create(b, loc, part, x4, offsets, sizes,
                                       strides);
}

Value mlir::rlx::buildRopeRotation(OpBuilder &b, Location loc, Value x,
                                   Value cos, Value sin, int64_t headDim,
                                   int64_t nRot, bool inverse) {
  int64_t half = nRot / 2;
  if (half == 0)
    return x;
  // Halves a = x[.., 0:h] and b = x[.., h:2h] of every head, the tables'
  // first h columns. One generic over (.., s, head, k, j) writes the rotated
  // columns [0, 2h) of every head as [.., S, H, 2, h], the half k's formula
  // picked by k: one result, in place in the result (which is x where
  // nothing rotates). With one result per half, written into two slices of
  // one tensor, bufferization copied the second half afresh (a serial pass
  // over half the result: rope_backward was no faster on 2 threads than 1).
  Value x4 = splitHeads(b, loc, x, headDim);
  Value xa = lastDimSlice(b, loc, x4, 0, half);
  Value xb = lastDimSlice(b, loc, x4, half, half);
  Value c = lastDimSlice(b, loc, cos, 0, half);
  Value t = lastDimSlice(b, loc, sin, 0, half);
  Value init =
      half * 2 == headDim
          ? tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, x4),
                                    getElementTypeOrSelf(x.getType()))
                .getResult()
          : x4;
  Value rotated = lastDimSlice(b, loc, init, 0, 2 * half);
  auto rotatedType = cast<RankedTensorType>(rotated.getType());
  int64_t rank = rotatedType.getRank();
  SmallVector<ReassociationIndices> splitLast = splitLastDim(rank);
  SmallVector<int64_t> pairShape(rotatedType.getShape().drop_back());
  pairShape.append({2, half});
  SmallVector<OpFoldResult> pairSizes = tensor::getMixedSizes(b, loc, rotated);
  pairSizes.back() = b.getIndexAttr(2);
  pairSizes.push_back(b.getIndexAttr(half));
  Value pairs = tensor::ExpandShapeOp::create(
      b, loc, rotatedType.clone(pairShape), rotated, splitLast, pairSizes);
  // Loops (.., s, head, k, j): the halves skip k, the tables read (s, j).
  int64_t loops = rank + 1;
  SmallVector<AffineExpr> halfDims;
  for (int64_t d = 0; d < loops; ++d)
    if (d != loops - 2)
      halfDims.push_back(b.getAffineDimExpr(d));
  AffineMap halfMap = AffineMap::get(loops, 0, halfDims, b.getContext());
  AffineMap table = AffineMap::get(
      loops, 0, {b.getAffineDimExpr(loops - 4), b.getAffineDimExpr(loops - 1)},
      b.getContext());
  AffineMap id = b.getMultiDimIdentityMap(loops);
  // k == 0 as a [2] table ({true, false}) read at k, rather than
  // linalg.index k (rlx-vectorize-rows vectorizes only the innermost index).
  auto flagType = RankedTensorType::get({2}, b.getI1Type());
  Value isFirstHalf = arith::ConstantOp::create(
      b, loc, flagType,
      DenseElementsAttr::get(flagType, ArrayRef<bool>{true, false}));
  AffineMap kMap =
      AffineMap::get(loops, 0, b.getAffineDimExpr(loops - 2), b.getContext());
  Value y = buildGeneric(
      b, loc,
      {{xa, halfMap},
       {xb, halfMap},
       {c, table},
       {t, table},
       {isFirstHalf, kMap}},
      {{pairs, id}},
      [&](OpBuilder &nb, Location l, ValueRange a) -> SmallVector<Value> {
        auto mul = [&](Value p, Value q) -> Value {
          return arith::MulFOp::create(nb, l, p, q);
        };
        // Forward: (a c - b s, b c + a s); inverse (the gradient): sin -> -sin.
        Value ac = mul(a[0], a[2]), bs = mul(a[1], a[3]);
        Value bc = mul(a[1], a[2]), as = mul(a[0], a[3]);
        Value first = inverse
                          ? arith::AddFOp::create(nb, l, ac, bs).getResult()
                          : arith::SubFOp::create(nb, l, ac, bs).getResult();
        Value second = inverse
                           ? arith::SubFOp::create(nb, l, bc, as).getResult()
                           : arith::AddFOp::create(nb, l, bc, as).getResult();
        return {arith::SelectOp::create(nb, l, a[4], first, second)};
      })[0];
  Value y4 = insertLastDimSlice(
      b, loc, tensor::CollapseShapeOp::create(b, loc, y, splitLast), init, 0);
  return tensor::CollapseShapeOp::create(
      b, loc, x.getType(), y4,
      splitLastDim(cast<ShapedType>(x.getType()).getRank()));
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
  auto [id, table] = headHalfMaps(b, xa);
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
