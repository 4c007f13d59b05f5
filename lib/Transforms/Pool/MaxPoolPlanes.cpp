//===- MaxPoolPlanes.cpp - max_pool2d_backward by (n, c) planes ------===//
//
// The plane forms of max-pool-scatter (dilation 1, static H, W, Ho, Wo): an
// scf.forall over the (n, c) planes, one thread per plane (a result does not
// depend on the thread count), and in each plane
//
//   xph = x[n, c] padded with -inf and split into its sW column phases
//        (buildPhasePlane): every tap of Ho x WoV windows is inside it (the
//        padding, the windows of ceil mode that reach past the input, and
//        the WoV - Wo windows that only round the vectorized argmax loop up
//        to whole vectors, see argmaxWidth)
//   best[ho, wo] = flat index h*W + w of the window's first max: a generic
//        over (ho, wo < WoV) reading xph once per tap (tensor.extract at a
//        unit-stride row across wo), starting from max = -inf and the
//        window's first in-bounds position and taking v when v > max or v
//        is NaN, taps in row-major order (PyTorch's rule; a -inf pad is never
//        taken). No branch and affine addresses: LLVM vectorizes it across
//        wo.
//
// and then dx[n, c] from best and dy[n, c] (the three forms' sums are equal
// bit for bit):
//   - max-pool-direct, kernel == stride (every position is in at most one
//     window): one elementwise generic over the window grid (ho, kh, wo, kw),
//     dy[ho, wo] where the position is best[ho, wo] and 0 elsewhere; no
//     scatter, no read of dx;
//   - max-pool-direct, overlapping windows, H and W multiples of the
//     stride: one elementwise generic per row phase of dx's stride phases
//     that adds dy of the few windows that reach the phase where the
//     position is their argmax (buildPlaneGather); no zeroed plane, no
//     scatter;
//   - otherwise: dx = 0; dx[best[i]] += dy[i] in window order.
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
/// two: a narrower vector rather than up to 15 wasted lanes), so that LLVM
/// vectorizes the argmax loop without a scalar remainder.
static int64_t argmaxWidth(int64_t outWidth) {
  if (outWidth < kLanes)
    return static_cast<int64_t>(llvm::PowerOf2Ceil(outWidth));
  return llvm::alignTo(outWidth, kLanes);
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

  /// buildPhasePlane's column offset, ceil(pW / sW).
  int64_t columnOffset() const {
    return llvm::divideCeil(padding[1], stride[1]);
  }
  /// The phase column of tap kw relative to the window: (kw - pW) div sW
  /// (floor) + columnOffset(), at least 0.
  int64_t tapShift(int64_t kw) const {
    return llvm::divideFloorSigned(kw - padding[1], stride[1]) + columnOffset();
  }

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

/// x's plane padded with -inf and split into its column phases:
/// xph[pH + h, w mod sW, off + w div sW] = x[h, w], off = ceil(pW / sW), so
/// that tap kw of window wo reads xph[row, d mod sW, wo + d div sW + off]
/// for d = kw - pW (floor division): a unit-stride row across the windows.
/// With the padded plane itself the taps were stride-sW loads, which LLVM
/// vectorized as interleave groups: two loads and two permutes per tap, and
/// a scalar remainder window (they read past their last element).
static Value buildPhasePlane(OpBuilder &b, Location loc, const Plane &p,
                             Value xPlane) {
  int64_t s = p.stride[1], off = p.columnOffset();
  int64_t wholeColumns = p.width / s;
  int64_t paddedHeight = std::max(
      p.padding[0] + p.height, (p.outHeight - 1) * p.stride[0] + p.kernel[0]);
  int64_t phaseWidth =
      std::max<int64_t>(off + llvm::divideCeil(p.width, s),
                        p.vectorWidth + p.tapShift(p.kernel[1] - 1));
  // Filled flat by a generic: LLVM vectorized the loop nest of a 3-D fill
  // across its outer loops, with scatters (and a linalg.fill takes the
  // reshape back into its own shape).
  Value negInf =
      floatConst(b, loc, p.element, -std::numeric_limits<double>::infinity());
  Value flatFill = buildParallel(
      b, loc, {b.getIndexAttr(paddedHeight * s * phaseWidth)}, p.element, {}, 1,
      [&](OpBuilder &, Location, ValueRange) -> SmallVector<Value> {
        return {negInf};
      })[0];
  Value xph = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({paddedHeight, s, phaseWidth}, p.element),
      flatFill, SmallVector<ReassociationIndices>{{0, 1, 2}});
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  OpFoldResult rows = b.getIndexAttr(p.height),
               top = b.getIndexAttr(p.padding[0]);
  SmallVector<OpFoldResult> unit(3, one);
  if (wholeColumns > 0) {
    // x's columns [0, wholeColumns * s) as [H, W div s, s], transposed into
    // xph[pH.., :, off..].
    Value whole = tensor::ExtractSliceOp::create(
        b, loc, xPlane, ArrayRef<OpFoldResult>{zero, zero},
        ArrayRef<OpFoldResult>{rows, b.getIndexAttr(wholeColumns * s)},
        ArrayRef<OpFoldResult>{one, one});
    Value groups = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({p.height, wholeColumns, s}, p.element),
        whole, SmallVector<ReassociationIndices>{{0}, {1, 2}});
    SmallVector<OpFoldResult> offsets{top, zero, b.getIndexAttr(off)};
    SmallVector<OpFoldResult> sizes{rows, b.getIndexAttr(s),
                                    b.getIndexAttr(wholeColumns)};
    Value target =
        tensor::ExtractSliceOp::create(b, loc, xph, offsets, sizes, unit);
    Value phases = linalg::TransposeOp::create(b, loc, groups, target,
                                               ArrayRef<int64_t>{0, 2, 1})
                       .getResult()[0];
    xph = tensor::InsertSliceOp::create(b, loc, phases, xph, offsets, sizes,
                                        unit);
  }
  // The last W mod s columns, one column each.
  for (int64_t q = 0; q < p.width % s; ++q) {
    Value column = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({p.height}, p.element), xPlane,
        ArrayRef<OpFoldResult>{zero, b.getIndexAttr(wholeColumns * s + q)},
        ArrayRef<OpFoldResult>{rows, one}, ArrayRef<OpFoldResult>{one, one});
    xph = tensor::InsertSliceOp::create(
        b, loc, column, xph,
        ArrayRef<OpFoldResult>{top, b.getIndexAttr(q),
                               b.getIndexAttr(off + wholeColumns)},
        ArrayRef<OpFoldResult>{rows, one, one}, unit);
  }
  return xph;
}

/// best[ho, wo] for wo < WoV (the header's rule) from the plane of x.
static Value buildPlaneArgmax(OpBuilder &b, Location loc, const Plane &p,
                              Value xPlane, Value firstColumns, Value init) {
  MLIRContext *ctx = b.getContext();
  double negInfinity = -std::numeric_limits<double>::infinity();
  Value xph = buildPhasePlane(b, loc, p, xPlane);
  Value negInf = floatConst(b, loc, p.element, negInfinity);
  Value inf = floatConst(b, loc, p.element, -negInfinity);
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
            int64_t d = kw - p.padding[1];
            Value v = tensor::ExtractOp::create(
                b, l, xph,
                ValueRange{m.add(row0, m.c(kh)), m.c(llvm::mod(d, p.stride[1])),
                           m.add(m.index(1), m.c(p.tapShift(kw)))});
            // v > max or v is NaN, as one compare: unordered-or-greater,
            // with a taken NaN kept as +inf in max (never NaN), after which
            // only a NaN compares unordered-or-greater, as after the NaN
            // itself. The +inf is min(v, +inf) with NaN giving +inf, which
            // x86 does in one minps.
            Value take =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UGT, v, max);
            Value numeric = m.select(
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v, inf),
                v, inf);
            Value offset = arith::ConstantOp::create(
                b, l, b.getIntegerAttr(p.index, kh * p.width + kw));
            max = m.select(take, numeric, max);
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

namespace {
/// The windows that may contain a position of phase (ph, pw) along one
/// axis (the gather form): position h = s*i + ph lies in windows
/// ho = i + a for a in [first, first + count), for every phase (dilation 1:
/// ho*s - p <= h <= ho*s - p + k - 1).
struct WindowOffsets {
  int64_t kernel, stride, padding;
  int64_t first, count;

  WindowOffsets(int64_t kernel, int64_t stride, int64_t padding)
      : kernel(kernel), stride(stride), padding(padding),
        first(llvm::divideCeilSigned(padding - kernel + 1, stride)),
        count((stride - 1 + padding) / stride - first + 1) {}

  /// The phases [lo, hi] that window i + first + a contains (clamped to
  /// [0, stride)): (first + a)*s - p <= phase <= (first + a)*s - p + k - 1.
  std::pair<int64_t, int64_t> phasesOf(int64_t a) const {
    int64_t lo = (first + a) * stride - padding;
    return {std::max<int64_t>(lo, 0),
            std::min<int64_t>(lo + kernel - 1, stride - 1)};
  }
};
} // namespace

/// Windows one position may gather from at most (k3 s1: 9, k3 s2: 4): past
/// that the compares cost more than the scatter they replace.
static constexpr int64_t kMaxGatherTerms = 16;

/// Whether buildPlaneGather applies: every axis splits into whole phases.
static bool gatherFits(const Plane &p) {
  WindowOffsets rows(p.kernel[0], p.stride[0], p.padding[0]);
  WindowOffsets cols(p.kernel[1], p.stride[1], p.padding[1]);
  return p.height % p.stride[0] == 0 && p.width % p.stride[1] == 0 &&
         rows.count * cols.count <= kMaxGatherTerms;
}

/// dx of the plane for overlapping windows without a scatter (max-pool-direct):
/// dx viewed as [H/sH, sH, W/sW, sW] (position (s*i + ph, s*j + pw)), one
/// elementwise generic per row phase ph over (i, j, pw). Each adds, in window
/// order, dy of the windows (i + a, j + c) that contain positions of its
/// phases where their argmax is the position: the rows a that reach phase
/// ph are chosen here, the columns c by a condition on pw (constant once
/// rlx-vectorize-rows clones the body per column phase). Starting from +0
/// the sum is never -0, so the sums are the scatter's bit for bit. best and
/// dy are read at shifted slices of copies padded by the windows past the
/// plane's: best with -1 (no position), dy with 0, which also cancels the
/// argmax's extra windows wo >= Wo.
static Value buildPlaneGather(OpBuilder &b, Location loc, const Plane &p,
                              Value dxPlane,
                              function_ref<Value(Value)> argmaxInto,
                              Value dyPlane) {
  MLIRContext *ctx = b.getContext();
  WindowOffsets rows(p.kernel[0], p.stride[0], p.padding[0]);
  WindowOffsets cols(p.kernel[1], p.stride[1], p.padding[1]);
  int64_t phaseRows = p.height / p.stride[0], phaseCols = p.width / p.stride[1];
  // Padded row r holds window r + first; best's [Ho, WoV] must fit.
  int64_t padRows = phaseRows + rows.count - 1;
  int64_t padCols =
      std::max(phaseCols + cols.count - 1, p.vectorWidth - cols.first);
  OpFoldResult zeroIndex = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> unit{one, one};
  SmallVector<OpFoldResult> origin{b.getIndexAttr(-rows.first),
                                   b.getIndexAttr(-cols.first)};
  auto placed = [&](Value small, Value large) -> Value {
    auto type = cast<RankedTensorType>(small.getType());
    return tensor::InsertSliceOp::create(
        b, loc, small, large, origin,
        getAsIndexOpFoldResult(ctx, type.getShape()), unit);
  };
  // The argmax writes its [Ho, WoV] windows into the padded buffer.
  Value noPosition =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(p.index, -1));
  Value bestPadded =
      linalg::FillOp::create(
          b, loc, noPosition,
          ValueRange{tensor::EmptyOp::create(
              b, loc, ArrayRef<int64_t>{padRows, padCols}, p.index)})
          .getResult(0);
  Value argmaxWindows = tensor::ExtractSliceOp::create(
      b, loc, bestPadded, origin,
      ArrayRef<OpFoldResult>{b.getIndexAttr(p.outHeight),
                             b.getIndexAttr(p.vectorWidth)},
      unit);
  bestPadded = placed(argmaxInto(argmaxWindows), bestPadded);
  Value dyPadded =
      placed(dyPlane,
             filled(b, loc,
                    tensor::EmptyOp::create(
                        b, loc, ArrayRef<int64_t>{padRows, padCols}, p.element),
                    0.0));
  auto shifted = [&](Value padded, int64_t a, int64_t c) -> Value {
    return tensor::ExtractSliceOp::create(
        b, loc, padded,
        ArrayRef<OpFoldResult>{b.getIndexAttr(a), b.getIndexAttr(c)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(phaseRows),
                               b.getIndexAttr(phaseCols)},
        unit);
  };
  SmallVector<ReassociationIndices> split{{0, 1}, {2, 3}};
  auto phaseType = RankedTensorType::get(
      {phaseRows, p.stride[0], phaseCols, p.stride[1]}, p.element);
  Value phases =
      tensor::ExpandShapeOp::create(b, loc, phaseType, dxPlane, split);
  auto rowType =
      RankedTensorType::get({phaseRows, phaseCols, p.stride[1]}, p.element);
  Value zero = floatConst(b, loc, p.element, 0.0);
  AffineExpr d0, d1;
  bindDims(ctx, d0, d1);
  AffineMap window = AffineMap::get(3, 0, {d0, d1}, ctx);
  for (int64_t ph = 0; ph < p.stride[0]; ++ph) {
    SmallVector<GenericOperand> inputs;
    SmallVector<int64_t> columnOfTerm;
    for (int64_t a = 0; a < rows.count; ++a) {
      auto [lo, hi] = rows.phasesOf(a);
      if (ph < lo || ph > hi)
        continue;
      for (int64_t c = 0; c < cols.count; ++c) {
        inputs.push_back({shifted(bestPadded, a, c), window});
        inputs.push_back({shifted(dyPadded, a, c), window});
        columnOfTerm.push_back(c);
      }
    }
    SmallVector<OpFoldResult> offsets{zeroIndex, b.getIndexAttr(ph), zeroIndex,
                                      zeroIndex};
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(phaseRows), one,
                                    b.getIndexAttr(phaseCols),
                                    b.getIndexAttr(p.stride[1])};
    SmallVector<OpFoldResult> strides(4, one);
    Value rowPhase = tensor::ExtractSliceOp::create(b, loc, rowType, phases,
                                                    offsets, sizes, strides);
    Value result = buildGeneric(
        b, loc, inputs, {{rowPhase, AffineMap::getMultiDimIdentityMap(3, ctx)}},
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          IndexMath m{b, l};
          Value row = m.add(m.mul(m.index(0), m.c(p.stride[0])), m.c(ph));
          Value col = m.add(m.mul(m.index(1), m.c(p.stride[1])), m.index(2));
          Value position = p.flat(b, l, row, col);
          Value sum = zero;
          for (auto [t, c] : llvm::enumerate(columnOfTerm)) {
            Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                              args[2 * t], position);
            // Column phases outside window c's never match: say so, so
            // that the term folds away where pw is a constant.
            auto [lo, hi] = cols.phasesOf(c);
            if (lo > 0)
              hit = m.both(
                  hit, m.cmp(arith::CmpIPredicate::sge, m.index(2), m.c(lo)));
            if (hi < p.stride[1] - 1)
              hit = m.both(
                  hit, m.cmp(arith::CmpIPredicate::sle, m.index(2), m.c(hi)));
            sum = m.select(
                hit, arith::AddFOp::create(b, l, sum, args[2 * t + 1]), sum);
          }
          return {sum};
        })[0];
    phases = tensor::InsertSliceOp::create(b, loc, result, phases, offsets,
                                           sizes, strides);
  }
  return tensor::CollapseShapeOp::create(b, loc, phases, split);
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
  Value xPlane = plane(x, p.height, p.width);
  auto argmaxInto = [&](Value init) {
    return buildPlaneArgmax(rewriter, loc, p, xPlane, firstColumns, init);
  };
  Value windows = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{p.outHeight, p.vectorWidth}, p.index);
  Value dyPlane = plane(dy, p.outHeight, p.outWidth);
  Value dxPlane = plane(out, p.height, p.width);
  Value dx;
  if (direct && p.kernel == p.stride)
    dx = buildPlaneDirect(rewriter, loc, p, dxPlane, argmaxInto(windows),
                          dyPlane);
  else if (direct && gatherFits(p))
    dx = buildPlaneGather(rewriter, loc, p, dxPlane, argmaxInto, dyPlane);
  else
    dx = buildPlaneScatter(rewriter, loc, p, dxPlane, argmaxInto(windows),
                           dyPlane);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      rewriter, loc, dx, out, offsets,
      SmallVector<OpFoldResult>{one, one, rewriter.getIndexAttr(p.height),
                                rewriter.getIndexAttr(p.width)},
      strides);
  rewriter.setInsertionPointAfter(forall);
  return forall.getResult(0);
}
