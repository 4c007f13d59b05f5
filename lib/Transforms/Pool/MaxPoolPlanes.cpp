//===- MaxPoolPlanes.cpp - max_pool2d_backward by (n, c) planes ------===//
//
// The plane forms of max-pool-scatter (dilation 1, static H, W, Ho, Wo): an
// scf.forall over the (n, c) planes, one thread per plane (a result does not
// depend on the thread count), and in each plane
//
//   xp = x[n, c] padded with -inf to [Hp, Wp]: every tap of Ho x WoV windows
//        is inside it (the padding, the windows of ceil mode that reach past
//        the input, and the WoV - Wo windows that only make the vectorized
//        argmax loop leave one window to its scalar remainder, see
//        argmaxWidth: the remainder of Wo = 56 cost as much as the vector
//        part)
//   best[ho, wo] = flat index h*W + w of the window's first max: a generic
//        over (ho, wo < WoV) reading xp once per tap (tensor.extract at
//        (ho*sH + kh, wo*sW + kw)), starting from max = -inf and the window's
//        first in-bounds position and taking v when v > max or v is NaN,
//        taps in row-major order (PyTorch's rule; a -inf pad is never
//        taken). No branch and affine addresses: LLVM vectorizes it across
//        wo.
//
// and then dx[n, c] from best and dy[n, c]:
//   - overlapping windows: dx = 0; dx[best[i]] += dy[i] in window order (the
//     sums of the other forms bit for bit);
//   - max-pool-direct, kernel == stride (every position is in at most one
//     window): one elementwise generic over the window grid (ho, kh, wo, kw),
//     dy[ho, wo] where the position is best[ho, wo] and 0 elsewhere; no
//     scatter, no read of dx.
//
// With dilation 1 and padding at most half the kernel every window holds a
// position of x (the verifier's rules), so `best` is always in the plane.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Pool/PoolUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// Windows per argmax row are rounded up to a multiple of this: a multiple
/// of every x86 vector width in f32 and f64 lanes (AVX-512: 16 f32).
static constexpr int64_t kLanes = 16;

/// WoV: Wo rounded up to a multiple of kLanes (below kLanes to a power of
/// two: a narrower vector rather than up to 15 wasted lanes), plus one. LLVM
/// vectorizes the strided tap loads (stride sW) as interleave groups that
/// read past their last element, so it leaves at least one iteration to
/// scalar code: with a multiple of the vector width that was a whole vector
/// of windows, with the +1 it is one window.
static int64_t argmaxWidth(int64_t outWidth) {
  if (outWidth < kLanes)
    return static_cast<int64_t>(llvm::PowerOf2Ceil(outWidth)) + 1;
  return (outWidth + kLanes - 1) / kLanes * kLanes + 1;
}

namespace {
/// The static shapes of one plane and what every part of the form shares.
struct Plane {
  ArrayRef<int64_t> kernel, stride, padding;
  int64_t height, width, outHeight, outWidth;
  /// WoV (argmaxWidth): the argmax's windows per row.
  int64_t vectorWidth;
  /// The element type of x and the flat plane index type (i32 when H*W
  /// fits).
  Type element, index;

  Value flat(OpBuilder &b, Location loc, Value row, Value col) const {
    auto cast = [&](Value v) {
      return arith::IndexCastOp::create(b, loc, index, v).getResult();
    };
    Value w = arith::ConstantOp::create(b, loc, b.getIntegerAttr(index, width));
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, cast(row), w), cast(col));
  }
};
} // namespace

/// The column of each window's first in-bounds position, max(wo*sW - pW, 0)
/// for wo < WoV, as an [WoV] tensor of the index type. A table rather than a
/// max in the argmax body: LLVM peeled the loop's first iteration to drop
/// that max and then left a scalar remainder.
static Value buildFirstColumns(OpBuilder &b, Location loc, const Plane &p) {
  return buildParallel(
      b, loc, {b.getIndexAttr(p.vectorWidth)}, p.index, {}, 1,
      [&](OpBuilder &b, Location l, ValueRange) -> SmallVector<Value> {
        IndexMath m{b, l};
        Value left =
            m.sub(m.mul(m.index(0), m.c(p.stride[1])), m.c(p.padding[1]));
        Value col = arith::MaxSIOp::create(b, l, left, m.c(0));
        return {arith::IndexCastOp::create(b, l, p.index, col).getResult()};
      })[0];
}

/// best[ho, wo] for wo < WoV (the header's rule) from the plane of x.
static Value buildPlaneArgmax(OpBuilder &b, Location loc, const Plane &p,
                              Value xPlane, Value firstColumns) {
  MLIRContext *ctx = b.getContext();
  double negInfinity = -std::numeric_limits<double>::infinity();
  int64_t paddedHeight = std::max(
      p.padding[0] + p.height, (p.outHeight - 1) * p.stride[0] + p.kernel[0]);
  int64_t paddedWidth = std::max(
      p.padding[1] + p.width, (p.vectorWidth - 1) * p.stride[1] + p.kernel[1]);
  Value xp = filled(
      b, loc,
      tensor::EmptyOp::create(
          b, loc, ArrayRef<int64_t>{paddedHeight, paddedWidth}, p.element),
      negInfinity);
  xp = tensor::InsertSliceOp::create(
      b, loc, xPlane, xp,
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.padding[0]),
                             b.getIndexAttr(p.padding[1])},
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.height), b.getIndexAttr(p.width)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  Value negInf = floatConst(b, loc, p.element, negInfinity);
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{p.outHeight, p.vectorWidth}, p.index);
  AffineExpr d0, d1;
  bindDims(ctx, d0, d1);
  return buildGeneric(
      b, loc, {{firstColumns, AffineMap::get(2, 0, {d1}, ctx)}},
      {{init, AffineMap::getMultiDimIdentityMap(2, ctx)}},
      [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
        IndexMath m{b, l};
        Value row0 = m.mul(m.index(0), m.c(p.stride[0]));
        Value col0 = m.mul(m.index(1), m.c(p.stride[1]));
        Value top = m.sub(row0, m.c(p.padding[0]));
        Value base = p.flat(b, l, top, m.sub(col0, m.c(p.padding[1])));
        // The first in-bounds position: (max(top, 0), firstColumns[wo]).
        Value first = arith::AddIOp::create(
            b, l,
            p.flat(b, l, arith::MaxSIOp::create(b, l, top, m.c(0)), m.c(0)),
            args[0]);
        Value max = negInf, idx = first;
        for (int64_t kh = 0; kh < p.kernel[0]; ++kh) {
          for (int64_t kw = 0; kw < p.kernel[1]; ++kw) {
            Value v = tensor::ExtractOp::create(
                b, l, xp,
                ValueRange{m.add(row0, m.c(kh)), m.add(col0, m.c(kw))});
            Value take = m.either(
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v, max),
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, v, v));
            Value offset = arith::ConstantOp::create(
                b, l, b.getIntegerAttr(p.index, kh * p.width + kw));
            max = m.select(take, v, max);
            idx =
                m.select(take, arith::AddIOp::create(b, l, base, offset), idx);
          }
        }
        return {idx};
      })[0];
}

/// dx of the plane for overlapping windows: zero, then dy added at each
/// window's argmax in window order.
static Value buildPlaneScatter(OpBuilder &b, Location loc, const Plane &p,
                               Value dxPlane, Value best, Value dyPlane) {
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value rows = arith::ConstantIndexOp::create(b, loc, p.outHeight);
  Value cols = arith::ConstantIndexOp::create(b, loc, p.outWidth);
  SmallVector<ReassociationIndices> both{{0, 1}};
  Value dxFlat = tensor::CollapseShapeOp::create(
      b, loc, filled(b, loc, dxPlane, 0.0), both);
  auto loop = scf::ForOp::create(
      b, loc, c0, rows, c1, ValueRange{dxFlat},
      [&](OpBuilder &b, Location l, Value ho, ValueRange rowAcc) {
        auto inner = scf::ForOp::create(
            b, l, c0, cols, c1, rowAcc,
            [&](OpBuilder &b, Location l, Value wo, ValueRange acc) {
              Value at = arith::IndexCastOp::create(
                  b, l, b.getIndexType(),
                  tensor::ExtractOp::create(b, l, best, ValueRange{ho, wo}));
              Value g =
                  tensor::ExtractOp::create(b, l, dyPlane, ValueRange{ho, wo});
              Value cur = tensor::ExtractOp::create(b, l, acc[0], at);
              Value sum = arith::AddFOp::create(b, l, cur, g);
              scf::YieldOp::create(
                  b, l,
                  tensor::InsertOp::create(b, l, sum, acc[0], at).getResult());
            });
        scf::YieldOp::create(b, l, inner.getResults());
      });
  return tensor::ExpandShapeOp::create(
      b, loc, dxPlane.getType(), loop.getResult(0), both,
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.height),
                             b.getIndexAttr(p.width)});
}

/// dx of the plane for kernel == stride: the window grid [Ho*kH, Wo*kW]
/// (grid row r is x's row r - pH) by one elementwise generic over
/// (ho, kh, wo, kw), dy[ho, wo] at best[ho, wo] and 0 elsewhere. The grid is
/// dx's plane itself when it tiles it exactly; else its part inside x goes
/// into the plane, zeroed first where the grid does not cover it.
static Value buildPlaneDirect(OpBuilder &b, Location loc, const Plane &p,
                              Value dxPlane, Value best, Value dyPlane) {
  MLIRContext *ctx = b.getContext();
  int64_t gridHeight = p.outHeight * p.kernel[0];
  int64_t gridWidth = p.outWidth * p.kernel[1];
  bool exact = p.padding[0] == 0 && p.padding[1] == 0 &&
               gridHeight == p.height && gridWidth == p.width;
  Value grid =
      exact ? dxPlane
            : tensor::EmptyOp::create(
                  b, loc, ArrayRef<int64_t>{gridHeight, gridWidth}, p.element)
                  .getResult();
  SmallVector<ReassociationIndices> split{{0, 1}, {2, 3}};
  auto gridType = RankedTensorType::get(
      {p.outHeight, p.kernel[0], p.outWidth, p.kernel[1]}, p.element);
  Value gridInit = tensor::ExpandShapeOp::create(b, loc, gridType, grid, split);
  // best's windows wo < Wo (it has WoV per row).
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Value bestView = tensor::ExtractSliceOp::create(
      b, loc, best, ArrayRef<OpFoldResult>{zero, zero},
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.outHeight),
                             b.getIndexAttr(p.outWidth)},
      ArrayRef<OpFoldResult>{one, one});
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  AffineMap window = AffineMap::get(4, 0, {d0, d2}, ctx);
  Value zeroV = floatConst(b, loc, p.element, 0.0);
  Value result = buildGeneric(
      b, loc, {{bestView, window}, {dyPlane, window}},
      {{gridInit, AffineMap::getMultiDimIdentityMap(4, ctx)}},
      [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
        IndexMath m{b, l};
        Value row =
            m.sub(m.add(m.mul(m.index(0), m.c(p.kernel[0])), m.index(1)),
                  m.c(p.padding[0]));
        Value col =
            m.sub(m.add(m.mul(m.index(2), m.c(p.kernel[1])), m.index(3)),
                  m.c(p.padding[1]));
        Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                          p.flat(b, l, row, col), args[0]);
        return {m.select(hit, args[1], zeroV)};
      })[0];
  Value gridDone = tensor::CollapseShapeOp::create(b, loc, result, split);
  if (exact)
    return gridDone;
  // The grid's rows and columns inside x; those past it stay 0.
  int64_t rowsIn = std::min(p.height, gridHeight - p.padding[0]);
  int64_t colsIn = std::min(p.width, gridWidth - p.padding[1]);
  Value inside = tensor::ExtractSliceOp::create(
      b, loc, gridDone,
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.padding[0]),
                             b.getIndexAttr(p.padding[1])},
      ArrayRef<OpFoldResult>{b.getIndexAttr(rowsIn), b.getIndexAttr(colsIn)},
      ArrayRef<OpFoldResult>{one, one});
  if (rowsIn == p.height && colsIn == p.width)
    return inside;
  return tensor::InsertSliceOp::create(
      b, loc, inside, filled(b, loc, dxPlane, 0.0),
      ArrayRef<OpFoldResult>{zero, zero},
      ArrayRef<OpFoldResult>{b.getIndexAttr(rowsIn), b.getIndexAttr(colsIn)},
      ArrayRef<OpFoldResult>{one, one});
}

Value mlir::rlx::buildMaxPoolPlanes(RewriterBase &rewriter,
                                    MaxPool2dBackwardOp op, bool direct) {
  Location loc = op.getLoc();
  Value x = op.getX(), dy = op.getDy();
  auto xType = cast<RankedTensorType>(x.getType());
  auto dyType = cast<RankedTensorType>(dy.getType());
  int64_t outWidth = dyType.getDimSize(3);
  Plane p{op.getKernelSize(),
          op.getStride(),
          op.getPadding(),
          xType.getDimSize(2),
          xType.getDimSize(3),
          dyType.getDimSize(2),
          outWidth,
          argmaxWidth(outWidth),
          xType.getElementType(),
          rewriter.getI64Type()};
  if (p.height * p.width < std::numeric_limits<int32_t>::max())
    p.index = rewriter.getI32Type();
  direct = direct && p.kernel == p.stride;

  Value firstColumns = buildFirstColumns(rewriter, loc, p);
  auto forall = scf::ForallOp::create(
      rewriter, loc,
      ArrayRef<OpFoldResult>{linalg::createFoldedDimOp(rewriter, loc, x, 0),
                             linalg::createFoldedDimOp(rewriter, loc, x, 1)},
      ValueRange{emptyLike(rewriter, loc, x)}, std::nullopt);
  Value n = forall.getInductionVars()[0], c = forall.getInductionVars()[1];
  Value out = forall.getRegionIterArgs()[0];
  rewriter.setInsertionPoint(forall.getTerminator());
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets{n, c, zero, zero}, strides(4, one);
  auto plane = [&](Value v, int64_t rows, int64_t cols) -> Value {
    return tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({rows, cols}, p.element), v,
        offsets,
        SmallVector<OpFoldResult>{one, one, rewriter.getIndexAttr(rows),
                                  rewriter.getIndexAttr(cols)},
        strides);
  };
  Value best = buildPlaneArgmax(rewriter, loc, p, plane(x, p.height, p.width),
                                firstColumns);
  Value dyPlane = plane(dy, p.outHeight, p.outWidth);
  Value dxPlane = plane(out, p.height, p.width);
  Value dx = direct
                 ? buildPlaneDirect(rewriter, loc, p, dxPlane, best, dyPlane)
                 : buildPlaneScatter(rewriter, loc, p, dxPlane, best, dyPlane);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      rewriter, loc, dx, out, offsets,
      SmallVector<OpFoldResult>{one, one, rewriter.getIndexAttr(p.height),
                                rewriter.getIndexAttr(p.width)},
      strides);
  rewriter.setInsertionPointAfter(forall);
  return forall.getResult(0);
}
