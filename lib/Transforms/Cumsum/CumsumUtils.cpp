//===- CumsumUtils.cpp - prefix sums shared by cumsum and its gradient ----===//
#include "Cumsum/CumsumUtils.h"

#include "Common/Builders.h"

#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// The L x L matrix T[j, i] = 1 if (j pred i) else 0, where pred is <=, <,
/// >= or > for the forward/reverse, inclusive/exclusive sums, so that
/// y[m, i] = sum_j x[m, j] * T[j, i]. One generic on linalg.index.
static Value buildTriangularOnes(OpBuilder &b, Location loc, Type elementType,
                                 int64_t length, bool exclusive, bool reverse) {
  arith::CmpIPredicate pred =
      reverse
          ? (exclusive ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::uge)
          : (exclusive ? arith::CmpIPredicate::ult : arith::CmpIPredicate::ule);
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{length, length}, elementType);
  return buildGeneric(
      b, loc, {}, {{init, b.getMultiDimIdentityMap(2)}},
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        Value j = linalg::IndexOp::create(nb, nloc, 0);
        Value i = linalg::IndexOp::create(nb, nloc, 1);
        Value keep = arith::CmpIOp::create(nb, nloc, pred, j, i);
        return SmallVector<Value>{arith::SelectOp::create(
            nb, nloc, keep, floatConst(nb, nloc, elementType, 1),
            floatConst(nb, nloc, elementType, 0))};
      })[0];
}

/// `x` with dimension `from` moved to position `to` (a linalg.transpose), or
/// `x` itself when from == to.
static Value moveDim(OpBuilder &b, Location loc, Value x, int64_t from,
                     int64_t to) {
  if (from == to)
    return x;
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != from)
      perm.push_back(d);
  perm.insert(perm.begin() + to, from);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x), permuted;
  for (int64_t d : perm)
    permuted.push_back(sizes[d]);
  Value init = tensor::EmptyOp::create(
      b, loc, permuted, cast<RankedTensorType>(x.getType()).getElementType());
  return linalg::TransposeOp::create(b, loc, x, init, perm)->getResult(0);
}

/// The O(L) scan: for k in [0, L), i = k (forward) or L-1-k (reverse):
///   inclusive: acc += x[.., i, ..]; y[.., i, ..] = acc
///   exclusive: y[.., i, ..] = acc; acc += x[.., i, ..]
/// acc is one slice along the axis, updated in place, starting from `init`
/// (zeros when null). Returns {y, the final acc}.
static std::pair<Value, Value> buildScan(OpBuilder &b, Location loc, Value x,
                                         int64_t axis, bool exclusive,
                                         bool reverse, Value init = {}) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  Value length = getValueOrCreateConstantIndexOp(b, loc, sizes[axis]);

  SmallVector<OpFoldResult> sliceSizes(sizes), accSizes(sizes);
  sliceSizes[axis] = b.getIndexAttr(1);
  accSizes.erase(accSizes.begin() + axis);
  SmallVector<int64_t> sliceShape(type.getShape());
  sliceShape.erase(sliceShape.begin() + axis);
  auto sliceType = RankedTensorType::get(sliceShape, type.getElementType());
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));

  Value out = emptyLike(b, loc, x);
  Value acc =
      init ? init
           : filled(b, loc,
                    tensor::EmptyOp::create(b, loc, accSizes,
                                            type.getElementType()),
                    0.0);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0),
        one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, zero, length, one, ValueRange{out, acc},
      [&](OpBuilder &lb, Location lloc, Value k, ValueRange iter) {
        Value i = k;
        if (reverse)
          i = arith::SubIOp::create(
              lb, lloc, arith::SubIOp::create(lb, lloc, length, one), k);
        SmallVector<OpFoldResult> offsets(rank, lb.getIndexAttr(0));
        offsets[axis] = i;
        Value slice = tensor::ExtractSliceOp::create(
            lb, lloc, sliceType, x, offsets, sliceSizes, strides);
        auto write = [&](Value value, Value into) -> Value {
          return tensor::InsertSliceOp::create(lb, lloc, value, into, offsets,
                                               sliceSizes, strides);
        };
        // Exclusive writes the running sum before adding the slice, so the
        // in-place update of acc comes after its last read.
        Value newAcc, newOut;
        if (exclusive) {
          newOut = write(iter[1], iter[0]);
          newAcc = addInto(lb, lloc, iter[1], slice);
        } else {
          newAcc = addInto(lb, lloc, iter[1], slice);
          newOut = write(newAcc, iter[0]);
        }
        scf::YieldOp::create(lb, lloc, ValueRange{newOut, newAcc});
      });
  return {loop.getResult(0), loop.getResult(1)};
}

static Value buildScanCumsum(OpBuilder &b, Location loc, Value x, int64_t axis,
                             bool exclusive, bool reverse) {
  return buildScan(b, loc, x, axis, exclusive, reverse).first;
}

/// The rows of a tile of the tiled scan: a multiple of this, one 512-bit
/// vector of f32 (the scan's add runs across the tile's rows).
static constexpr int64_t kTileRows = 16;

/// The cumsum along the rows of the static [M, L] matrix x2 by tiles of
/// `rows` x `chunk` (rows divides M, chunk divides L), small enough for L1:
/// an scf.forall over the blocks of rows (threads), and in each an scf.for
/// over its tiles in scan order, each transposed to [chunk, rows], scanned
/// along chunk with the running sums of the rows carried from the tile
/// before (buildScan: one vector add across the rows per step), and
/// transposed back into place. A scan along the contiguous axis otherwise
/// reads one strided column per step, and the blocked matmul form costs
/// 2 * cumsum-block-length FLOPs per element (4096x128: 0.37 -> 0.30 ms).
static Value buildTiledScan(OpBuilder &b, Location loc, Value x2, int64_t rows,
                            int64_t chunk, bool exclusive, bool reverse) {
  auto type = cast<RankedTensorType>(x2.getType());
  int64_t length = type.getDimSize(1), chunks = length / chunk;
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(type.getDimSize(0) / rows)},
      ValueRange{emptyLike(b, loc, x2)}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  auto cst = [](OpBuilder &ob, Location l, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(ob, l, v);
  };
  Value row = arith::MulIOp::create(b, loc, forall.getInductionVars()[0],
                                    cst(b, loc, rows));
  OpFoldResult zero = b.getIndexAttr(0);
  SmallVector<OpFoldResult> unit(2, b.getIndexAttr(1)),
      blockSizes{b.getIndexAttr(rows), b.getIndexAttr(length)},
      tileSizes{b.getIndexAttr(rows), b.getIndexAttr(chunk)};
  Value out = forall.getRegionIterArgs()[0];
  Value block = tensor::ExtractSliceOp::create(
      b, loc, type.clone({rows, length}), out,
      SmallVector<OpFoldResult>{row, zero}, blockSizes, unit);
  Value acc = filled(
      b, loc,
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows},
                              type.getElementType()),
      0.0);
  auto loop = scf::ForOp::create(
      b, loc, cst(b, loc, 0), cst(b, loc, chunks), cst(b, loc, 1),
      ValueRange{block, acc},
      [&](OpBuilder &lb, Location lloc, Value k, ValueRange iter) {
        Value index =
            reverse ? arith::SubIOp::create(lb, lloc, cst(lb, lloc, chunks - 1),
                                            k)
                          .getResult()
                    : k;
        Value col =
            arith::MulIOp::create(lb, lloc, index, cst(lb, lloc, chunk));
        Value tile = tensor::ExtractSliceOp::create(
            lb, lloc, type.clone({rows, chunk}), x2,
            SmallVector<OpFoldResult>{row, col}, tileSizes, unit);
        auto [sums, carry] = buildScan(lb, lloc, moveDim(lb, lloc, tile, 1, 0),
                                       0, exclusive, reverse, iter[1]);
        Value y = moveDim(lb, lloc, sums, 0, 1);
        Value next = tensor::InsertSliceOp::create(
            lb, lloc, y, iter[0], SmallVector<OpFoldResult>{zero, col},
            tileSizes, unit);
        scf::YieldOp::create(lb, lloc, ValueRange{next, carry});
      });
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, loop.getResult(0), out,
                                        SmallVector<OpFoldResult>{row, zero},
                                        blockSizes, unit);
  return forall.getResult(0);
}

/// The tile {rows, chunk} of buildTiledScan for an [m, length] matrix
/// (length static) of `elemBytes` elements whose tiles of kTileRows rows
/// fit in `tileBytes`: chunk = length when a tile of whole rows fits, else
/// the largest power of two dividing length that fits; rows the largest
/// multiple of kTileRows dividing m, at most m/2 (two blocks for two
/// threads) unless m == kTileRows, with rows x chunk in tileBytes. None for
/// a dynamic m, an m that kTileRows does not divide, or no chunk of at
/// least kTileRows.
static std::optional<std::pair<int64_t, int64_t>>
tiledScanShape(int64_t m, int64_t length, int64_t elemBytes,
               int64_t tileBytes) {
  if (tileBytes <= 0 || ShapedType::isDynamic(m) || m % kTileRows != 0)
    return std::nullopt;
  int64_t maxChunk = tileBytes / (kTileRows * elemBytes);
  int64_t chunk = length;
  if (length > maxChunk) {
    chunk = 0;
    for (int64_t c = kTileRows; c <= maxChunk; c *= 2)
      if (length % c == 0)
        chunk = c;
  }
  if (chunk < kTileRows)
    return std::nullopt;
  int64_t rows = kTileRows;
  for (int64_t r = kTileRows; r <= std::max(kTileRows, m / 2) &&
                              r * chunk * elemBytes <= tileBytes;
       r += kTileRows)
    if (m % r == 0)
      rows = r;
  return std::make_pair(rows, chunk);
}

/// Applies `rows` to x viewed as an [M, L] matrix (the axis moved last, the
/// leading dims collapsed into M; rank 1: [1, L]) and gives its [M, L] result
/// x's shape back. Both matrix forms sum along the rows of this view.
static Value onRows(OpBuilder &b, Location loc, Value x, int64_t axis,
                    function_ref<Value(Value)> rows) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), length = type.getDimSize(axis);
  Value last = moveDim(b, loc, x, axis, rank - 1);
  auto lastType = cast<RankedTensorType>(last.getType());

  // [..., L] -> [M, L] (rank 1: [1, L]).
  SmallVector<ReassociationIndices> to2d = {{}, {rank - 1}};
  for (int64_t d = 0; d < rank - 1; ++d)
    to2d[0].push_back(d);
  Value x2 = last;
  if (rank == 1) {
    auto t = RankedTensorType::get({1, length}, type.getElementType());
    x2 = tensor::ExpandShapeOp::create(b, loc, t, last,
                                       {ReassociationIndices{0, 1}});
  } else if (rank > 2) {
    x2 = tensor::CollapseShapeOp::create(b, loc, last, to2d);
  }

  Value y2 = rows(x2);

  // [M, L] -> [..., L], then the axis back in place.
  Value y = y2;
  if (rank == 1) {
    y = tensor::CollapseShapeOp::create(b, loc, y2,
                                        {ReassociationIndices{0, 1}});
  } else if (rank > 2) {
    y = tensor::ExpandShapeOp::create(b, loc, lastType, y2, to2d,
                                      tensor::getMixedSizes(b, loc, last));
  }
  return moveDim(b, loc, y, rank - 1, axis);
}

/// The cumsum along the rows of the [M, L] matrix x2 (L static): x2 * T,
/// added to `acc` (default: zeros).
static Value buildRowsMatmul(OpBuilder &b, Location loc, Value x2,
                             bool exclusive, bool reverse,
                             Value acc = nullptr) {
  auto type = cast<RankedTensorType>(x2.getType());
  Value ones = buildTriangularOnes(b, loc, type.getElementType(),
                                   type.getDimSize(1), exclusive, reverse);
  if (!acc)
    acc = filled(b, loc, emptyLike(b, loc, x2), 0.0);
  return linalg::MatmulOp::create(b, loc, ValueRange{x2, ones}, ValueRange{acc})
      .getResult(0);
}

/// The cumsum along the rows of the [M, L] matrix x2 in blocks of `block`
/// (L static, > block): L FLOPs per element with the L x L matrix become
/// `block`, and the sums stay matmuls (rlx-optimize-contractions) instead of
/// an O(L) loop of strided slices.
///   x2 padded with zeros to [M, nb * B] (nb = ceil(L / B); the zeros come
///     after every element of a forward sum and add 0 to a reverse one),
///   t[m, n] = sum of block n, c = exclusive sum of t over the blocks in the
///     same direction (the earlier blocks, or the later ones for reverse),
///   y = c broadcast over the block + [M * nb, B] view * the B x B triangular
///     T (the sum within the block), without the padding.
/// The carry is the matmul's accumulator, so it costs no pass of its own.
/// c is the nb x nb matmul when nb <= matrixMaxLength and otherwise the scan
/// over the blocks (B times shorter than over L): recursing into the blocked
/// form instead would add ops with every factor B of L.
static Value buildRowsBlocked(OpBuilder &b, Location loc, Value x2,
                              int64_t block, bool exclusive, bool reverse,
                              int64_t matrixMaxLength) {
  auto type = cast<RankedTensorType>(x2.getType());
  Type elementType = type.getElementType();
  int64_t rows = type.getDimSize(0), length = type.getDimSize(1);
  int64_t blocks = llvm::divideCeil(length, block), padded = blocks * block;

  Value xp = x2;
  if (padded != length) {
    SmallVector<OpFoldResult> low(2, b.getIndexAttr(0));
    SmallVector<OpFoldResult> high = {b.getIndexAttr(0),
                                      b.getIndexAttr(padded - length)};
    xp = tensor::PadOp::create(b, loc, type.clone({rows, padded}), x2, low,
                               high, floatConst(b, loc, elementType, 0.0));
  }

  // [M, nb * B] <-> [M, nb, B] <-> [M * nb, B].
  SmallVector<ReassociationIndices> splitBlocks = {{0}, {1, 2}},
                                    blockRows = {{0, 1}, {2}};
  auto type3 = RankedTensorType::get({rows, blocks, block}, elementType);
  SmallVector<OpFoldResult> sizes3 = {tensor::getMixedSizes(b, loc, xp)[0],
                                      b.getIndexAttr(blocks),
                                      b.getIndexAttr(block)};
  Value x3 =
      tensor::ExpandShapeOp::create(b, loc, type3, xp, splitBlocks, sizes3);

  Value totals = buildSum(b, loc, x3, {2});
  Value carry =
      blocks <= matrixMaxLength
          ? buildRowsMatmul(b, loc, totals, /*exclusive=*/true, reverse)
          : buildScanCumsum(b, loc, totals, 1, /*exclusive=*/true, reverse);
  Value carry3 =
      buildParallel(b, loc, sizes3, elementType,
                    {{carry, b.getMultiDimIdentityMap(3).dropResult(2)}}, 1,
                    [](OpBuilder &, Location, ValueRange args) {
                      return SmallVector<Value>{args[0]};
                    })[0];

  Value y2 = buildRowsMatmul(
      b, loc, tensor::CollapseShapeOp::create(b, loc, x3, blockRows), exclusive,
      reverse, tensor::CollapseShapeOp::create(b, loc, carry3, blockRows));
  Value y = tensor::CollapseShapeOp::create(
      b, loc,
      tensor::ExpandShapeOp::create(b, loc, type3, y2, blockRows, sizes3),
      splitBlocks);
  if (padded == length)
    return y;
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0)),
      strides(2, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = {sizes3[0], b.getIndexAttr(length)};
  return tensor::ExtractSliceOp::create(b, loc, type, y, offsets, sizes,
                                        strides);
}

Value mlir::rlx::buildCumsum(OpBuilder &b, Location loc, Value x, int64_t axis,
                             bool exclusive, bool reverse,
                             int64_t matrixMaxLength, int64_t blockLength,
                             int64_t tileBytes) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t dim = verifiedAxis(axis, type.getRank());
  int64_t length = type.getDimSize(dim);
  if (ShapedType::isDynamic(length))
    return buildScanCumsum(b, loc, x, dim, exclusive, reverse);
  // Along the last (contiguous) axis, longer than the small-matrix form.
  int64_t leading = 1;
  for (int64_t d = 0; d < dim; ++d)
    leading = type.isDynamicDim(d) ? ShapedType::kDynamic
                                   : leading * type.getDimSize(d);
  if (dim == type.getRank() - 1 && length > blockLength)
    if (auto tile = tiledScanShape(leading, length,
                                   type.getElementTypeBitWidth() / 8,
                                   tileBytes))
      return onRows(b, loc, x, dim, [&](Value x2) {
        return buildTiledScan(b, loc, x2, tile->first, tile->second,
                              exclusive, reverse);
      });
  // matrixMaxLength caps the block's matrix too, so that a small cap (e.g.
  // 4) still selects the scan for every longer axis.
  if (blockLength > 0 && length > blockLength && blockLength <= matrixMaxLength)
    return onRows(b, loc, x, dim, [&](Value x2) {
      return buildRowsBlocked(b, loc, x2, blockLength, exclusive, reverse,
                              matrixMaxLength);
    });
  if (length <= matrixMaxLength)
    return onRows(b, loc, x, dim, [&](Value x2) {
      return buildRowsMatmul(b, loc, x2, exclusive, reverse);
    });
  return buildScanCumsum(b, loc, x, dim, exclusive, reverse);
}
