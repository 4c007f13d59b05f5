//===- DecomposePoolBackward.cpp - Pool gradients --------------===//
//
// max_pool2d_backward is two linalg.generics, O(1) IR at any shape:
//
//   1. over (n, c, ho, wo, kh, kw), kh and kw reductions: each window's
//      maximum and its argmax as a flat window index kh*kW + kw (PyTorch's
//      rule: the first maximum in row-major window order, a NaN beats every
//      number, a later NaN beats an earlier one, padded positions never win);
//   2. over (n, c, h, w, a, b), a and b reductions over the at most
//      ceil(eH/sH) x ceil(eW/sW) windows that contain (h, w), e = d*(k-1)+1
//      the dilated window: the sum of dy[n, c, ho, wo] over those windows
//      whose argmax is (h, w).
//
// Dilation and ceil mode need nothing else: the window positions are
// origin + k*d, and the windows of ceil mode that reach past the input are
// bounded by dy's size and skip the positions outside x like the padding.
//
// Both read their gathered operands with tensor.extract at clamped indices
// and select the value away where the index was out of range.
//
// With max-pool-scatter (the default) it is instead one pass over the
// windows that adds dy at each window's argmax: with dilation 1 and static
// planes buildMaxPoolPlanes (MaxPoolPlanes.cpp: a -inf padded plane split
// into column phases, a vectorized argmax generic, then with
// max-pool-direct one elementwise generic over dx, or a scalar scatter in
// window order), else
// buildMaxPoolScatter (scalar loops per window). The IR does not depend on
// the sizes either.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Pool/PoolUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// dx by one pass over the windows (max-pool-scatter): an scf.forall over
/// the (n, c) planes (one thread per plane, so a result does not depend on
/// the thread count), and in each plane
///
///   for ho, wo:                                 windows in row-major order
///     (m, bh, bw, found) = first max of the window (the rule below),
///                          a loop over (kh, kw) on scalars
///     if found: dx[bh, bw] += dy[ho, wo]
///
/// Every position receives its windows' dy in ascending (ho, wo) order, as
/// PyTorch accumulates, so the sums are the gather form's bit for bit. No
/// argmax of every window is kept, and x and dy are read once.
static Value buildMaxPoolScatter(RewriterBase &rewriter,
                                 MaxPool2dBackwardOp op) {
  ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride(),
                    padding = op.getPadding(), dilation = op.getDilation();
  Location loc = op.getLoc();
  Value x = op.getX(), dy = op.getDy();
  auto xType = cast<RankedTensorType>(x.getType());
  Type e = xType.getElementType();
  IndexMath top{rewriter, loc};
  auto dim = [&](Value v, int64_t i) -> OpFoldResult {
    return linalg::createFoldedDimOp(rewriter, loc, v, i);
  };
  OpFoldResult batch = dim(x, 0), channels = dim(x, 1), height = dim(x, 2),
               width = dim(x, 3);
  Value heightV = getValueOrCreateConstantIndexOp(rewriter, loc, height);
  Value widthV = getValueOrCreateConstantIndexOp(rewriter, loc, width);
  Value outHeight = linalg::createOrFoldDimOp(rewriter, loc, dy, 2);
  Value outWidth = linalg::createOrFoldDimOp(rewriter, loc, dy, 3);
  Value c0 = top.c(0), c1 = top.c(1);
  Value kH = top.c(kernel[0]), kW = top.c(kernel[1]);
  Value dxInit = filledLike(rewriter, loc, x, 0.0);

  auto forall = scf::ForallOp::create(rewriter, loc,
                                      ArrayRef<OpFoldResult>{batch, channels},
                                      ValueRange{dxInit}, std::nullopt);
  Value n = forall.getInductionVars()[0], c = forall.getInductionVars()[1];
  Value out = forall.getRegionIterArgs()[0];
  rewriter.setInsertionPoint(forall.getTerminator());
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets{n, c, zero, zero},
      sizes{one, one, height, width}, strides(4, one);
  auto planeType =
      RankedTensorType::get({xType.getDimSize(2), xType.getDimSize(3)}, e);
  Value plane = tensor::ExtractSliceOp::create(rewriter, loc, planeType, out,
                                               offsets, sizes, strides);
  Value negInf = arith::ConstantOp::create(
      rewriter, loc, e,
      rewriter.getFloatAttr(e, -std::numeric_limits<double>::infinity()));
  Value falseV = arith::ConstantIntOp::create(rewriter, loc, 0, 1);

  auto rows = scf::ForOp::create(
      rewriter, loc, c0, outHeight, c1, ValueRange{plane},
      [&](OpBuilder &b, Location l, Value ho, ValueRange rowArgs) {
        auto cols = scf::ForOp::create(
            b, l, c0, outWidth, c1, rowArgs,
            [&](OpBuilder &b, Location l, Value wo, ValueRange colArgs) {
              IndexMath m{b, l};
              Value originH = m.sub(m.mul(ho, m.c(stride[0])), m.c(padding[0]));
              Value originW = m.sub(m.mul(wo, m.c(stride[1])), m.c(padding[1]));
              // PyTorch's sequential rule in row-major (kh, kw) order: take
              // v when nothing is taken yet, or v > max, or v is NaN (the
              // later NaN wins); padded positions are skipped.
              auto khLoop = scf::ForOp::create(
                  b, l, m.c(0), kH, m.c(1),
                  ValueRange{negInf, m.c(0), m.c(0), falseV},
                  [&](OpBuilder &b, Location l, Value kh, ValueRange hArgs) {
                    auto kwLoop = scf::ForOp::create(
                        b, l, IndexMath{b, l}.c(0), kW, IndexMath{b, l}.c(1),
                        hArgs,
                        [&](OpBuilder &b, Location l, Value kw,
                            ValueRange acc) {
                          IndexMath m{b, l};
                          Value h = m.add(originH, m.mul(kh, m.c(dilation[0])));
                          Value w = m.add(originW, m.mul(kw, m.c(dilation[1])));
                          Value inBounds = m.both(m.inRange(h, heightV),
                                                  m.inRange(w, widthV));
                          Value v = tensor::ExtractOp::create(
                              b, l, x,
                              ValueRange{n, c, m.select(inBounds, h, m.c(0)),
                                         m.select(inBounds, w, m.c(0))});
                          Value greater = arith::CmpFOp::create(
                              b, l, arith::CmpFPredicate::OGT, v, acc[0]);
                          Value isNan = arith::CmpFOp::create(
                              b, l, arith::CmpFPredicate::UNO, v, v);
                          Value notFound = arith::XOrIOp::create(
                              b, l, acc[3],
                              arith::ConstantIntOp::create(b, l, 1, 1));
                          Value take = m.both(
                              inBounds,
                              m.either(notFound, m.either(greater, isNan)));
                          scf::YieldOp::create(
                              b, l,
                              ValueRange{m.select(take, v, acc[0]),
                                         m.select(take, h, acc[1]),
                                         m.select(take, w, acc[2]),
                                         m.either(acc[3], inBounds)});
                        });
                    scf::YieldOp::create(b, l, kwLoop.getResults());
                  });
              Value bh = khLoop.getResult(1), bw = khLoop.getResult(2);
              Value found = khLoop.getResult(3);
              Value acc = colArgs[0];
              auto add = scf::IfOp::create(
                  b, l, found,
                  [&](OpBuilder &b, Location l) {
                    Value g = tensor::ExtractOp::create(
                        b, l, dy, ValueRange{n, c, ho, wo});
                    Value cur = tensor::ExtractOp::create(b, l, acc,
                                                          ValueRange{bh, bw});
                    Value sum = arith::AddFOp::create(b, l, cur, g);
                    Value next = tensor::InsertOp::create(b, l, sum, acc,
                                                          ValueRange{bh, bw});
                    scf::YieldOp::create(b, l, next);
                  },
                  [&](OpBuilder &b, Location l) {
                    scf::YieldOp::create(b, l, acc);
                  });
              scf::YieldOp::create(b, l, add.getResults());
            });
        scf::YieldOp::create(b, l, cols.getResults());
      });
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, rows.getResult(0), out,
                                        offsets, sizes, strides);
  rewriter.setInsertionPointAfter(forall);
  return forall.getResult(0);
}

/// dx[n,c,h,w] = sum of dy[n,c,ho,wo] over the windows (ho, wo) whose argmax
/// is (h, w). The argmax of window (ho, wo) is the position (ho*sH - pH + kh,
/// wo*sW - pW + kw) of the first maximum in row-major (kh, kw) order, where a
/// NaN is larger than any number and the last NaN wins (PyTorch's CPU and
/// CUDA kernels take `val > max || isnan(val)`), and padded positions are
/// skipped.
static FailureOr<SmallVector<Value>>
decomposeMaxPool2dBackward(RewriterBase &rewriter, MaxPool2dBackwardOp op,
                           const DecompositionOptions &options) {
  // max-pool-scatter: the plane form (vectorized argmax) where the
  // dilation is 1 and the planes are static (H, W, Ho, Wo; a dynamic batch
  // or C is fine: the collapse of a dynamic plane slice crashed MLIR 22's
  // memref lowering), else the scalar per-window loops.
  if (options.maxPoolScatter) {
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto dyType = cast<RankedTensorType>(op.getDy().getType());
    bool staticPlanes = !xType.isDynamicDim(2) && !xType.isDynamicDim(3) &&
                        !dyType.isDynamicDim(2) && !dyType.isDynamicDim(3);
    if (staticPlanes &&
        llvm::all_of(op.getDilation(), [](int64_t d) { return d == 1; }))
      return SmallVector<Value>{
          buildMaxPoolPlanes(rewriter, op, options.maxPoolDirect)};
    return SmallVector<Value>{buildMaxPoolScatter(rewriter, op)};
  }
  ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride(),
                    padding = op.getPadding(), dilation = op.getDilation();

  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value x = op.getX(), dy = op.getDy();
  Type i64 = rewriter.getI64Type();
  Value outHeight = linalg::createOrFoldDimOp(rewriter, loc, dy, 2);
  Value outWidth = linalg::createOrFoldDimOp(rewriter, loc, dy, 3);

  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(ctx, d0, d1, d2, d3, d4, d5);
  AffineMap windowMap = AffineMap::get(6, 0, {d4, d5}, ctx);
  AffineMap outerMap = AffineMap::get(6, 0, {d0, d1, d2, d3}, ctx);

  // 1. (max, argmax) of every window, the argmax as kh*kW + kw.
  Value best = buildWindowArgmax(rewriter, loc, x, dy,
                                 {kernel, stride, padding, dilation});

  // 2. dx: position (h, w) sits at (h + pH, w + pW) of the padded input; the
  // windows that may contain it are ho = (h + pH)/sH - (A-1) + a for a < A =
  // ceil(eH/sH), eH = dH*(kH-1) + 1 (ascending, as PyTorch accumulates),
  // valid when 0 <= ho < Ho and the offset off = h + pH - ho*sH is < eH and
  // a multiple of dH (then kh = off/dH); likewise for w.
  int64_t windowH = dilation[0] * (kernel[0] - 1) + 1;
  int64_t windowW = dilation[1] * (kernel[1] - 1) + 1;
  int64_t spanH = llvm::divideCeil(windowH, stride[0]);
  int64_t spanW = llvm::divideCeil(windowW, stride[1]);
  Value span = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{spanH, spanW}, rewriter.getI1Type());
  Value dxInit = filledLike(rewriter, loc, x, 0.0);
  // Loops (n, c, h, w, a, b); a and b reduce.
  Value dx = buildGeneric(
      rewriter, loc, {{span, windowMap}}, {{dxInit, outerMap}},
      [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
        IndexMath m{b, l};
        Value acc = args[1];
        // The window index along one axis and the offset of the position
        // inside it.
        auto axis = [&](int64_t posDim, int64_t spanDim, int64_t i,
                        int64_t spanLen, Value outSize,
                        Value &valid) -> std::pair<Value, Value> {
          Value p = m.add(m.index(posDim), m.c(padding[i]));
          Value o = m.add(m.sub(m.div(p, m.c(stride[i])), m.c(spanLen - 1)),
                          m.index(spanDim));
          Value off = m.sub(p, m.mul(o, m.c(stride[i])));
          int64_t window = dilation[i] * (kernel[i] - 1) + 1;
          valid = m.both(m.inRange(o, outSize), m.lt(off, m.c(window)));
          if (dilation[i] == 1)
            return {o, off};
          // off >= 0 whenever o >= 0 (o <= p / s), so unsigned rem/div are
          // exact where valid; elsewhere the result is selected away.
          Value onGrid = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::eq,
              arith::RemUIOp::create(b, l, off, m.c(dilation[i])), m.c(0));
          valid = m.both(valid, onGrid);
          return {o, m.div(off, m.c(dilation[i]))};
        };
        Value validH, validW;
        auto [ho, kh] = axis(2, 4, 0, spanH, outHeight, validH);
        auto [wo, kw] = axis(3, 5, 1, spanW, outWidth, validW);
        Value valid = m.both(validH, validW);
        SmallVector<Value> at{m.index(0), m.index(1),
                              m.select(valid, ho, m.c(0)),
                              m.select(valid, wo, m.c(0))};
        Value winner = tensor::ExtractOp::create(b, l, best, at);
        Value g = tensor::ExtractOp::create(b, l, dy, at);
        Value idx = arith::IndexCastOp::create(
            b, l, i64, m.add(m.mul(kh, m.c(kernel[1])), kw));
        Value hit =
            m.both(valid, arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                winner, idx));
        return {m.select(hit, arith::AddFOp::create(b, l, acc, g), acc)};
      })[0];
  return SmallVector<Value>{dx};
}

using PoolDecompositions = DecompositionList<
    Decomposition<MaxPool2dBackwardOp, decomposeMaxPool2dBackward>>;

void mlir::rlx::populatePoolDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  PoolDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachPoolDecompositionModels(MLIRContext *ctx) {
  PoolDecompositions::attachModels(ctx);
}
