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
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// Small index arithmetic on the builder of a generic body.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value lt(Value x, Value y) { return cmp(arith::CmpIPredicate::slt, x, y); }
  Value ge(Value x, Value y) { return cmp(arith::CmpIPredicate::sge, x, y); }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value either(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  /// 0 <= x < bound.
  Value inRange(Value x, Value bound) {
    return both(ge(x, c(0)), lt(x, bound));
  }
  Value index(int64_t dim) { return linalg::IndexOp::create(b, loc, dim); }
};
} // namespace

/// dx[n,c,h,w] = sum of dy[n,c,ho,wo] over the windows (ho, wo) whose argmax
/// is (h, w). The argmax of window (ho, wo) is the position (ho*sH - pH + kh,
/// wo*sW - pW + kw) of the first maximum in row-major (kh, kw) order, where a
/// NaN is larger than any number and the last NaN wins (PyTorch's CPU and
/// CUDA kernels take `val > max || isnan(val)`), and padded positions are
/// skipped.
static FailureOr<SmallVector<Value>>
decomposeMaxPool2dBackward(RewriterBase &rewriter, MaxPool2dBackwardOp op,
                           const DecompositionOptions &) {
  ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride(),
                    padding = op.getPadding(), dilation = op.getDilation();

  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value x = op.getX(), dy = op.getDy();
  Type i64 = rewriter.getI64Type();
  Value height = linalg::createOrFoldDimOp(rewriter, loc, x, 2);
  Value width = linalg::createOrFoldDimOp(rewriter, loc, x, 3);
  Value outHeight = linalg::createOrFoldDimOp(rewriter, loc, dy, 2);
  Value outWidth = linalg::createOrFoldDimOp(rewriter, loc, dy, 3);

  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(ctx, d0, d1, d2, d3, d4, d5);
  AffineMap windowMap = AffineMap::get(6, 0, {d4, d5}, ctx);
  AffineMap outerMap = AffineMap::get(6, 0, {d0, d1, d2, d3}, ctx);

  // 1. (max, argmax) of every window, the argmax as kh*kW + kw (-1: none yet).
  Value window =
      tensor::EmptyOp::create(rewriter, loc, kernel, rewriter.getI1Type());
  Value maxInit = filled(rewriter, loc, emptyLike(rewriter, loc, dy),
                         -std::numeric_limits<double>::infinity());
  Value argInit =
      linalg::FillOp::create(
          rewriter, loc,
          ValueRange{arith::ConstantIntOp::create(rewriter, loc, i64, -1)},
          ValueRange{emptyLike(rewriter, loc, dy, i64)})
          .getResult(0);
  // Loops (n, c, ho, wo, kh, kw); kh and kw reduce (no output uses them).
  SmallVector<Value> argmax = buildGeneric(
      rewriter, loc, {{window, windowMap}},
      {{maxInit, outerMap}, {argInit, outerMap}},
      [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
        IndexMath m{b, l};
        Value acc = args[1], best = args[2];
        Value kh = m.index(4), kw = m.index(5);
        // (h, w) = window origin + (kh, kw) * dilation, in x's coordinates.
        Value h = m.sub(m.add(m.mul(m.index(2), m.c(stride[0])),
                              m.mul(kh, m.c(dilation[0]))),
                        m.c(padding[0]));
        Value w = m.sub(m.add(m.mul(m.index(3), m.c(stride[1])),
                              m.mul(kw, m.c(dilation[1]))),
                        m.c(padding[1]));
        Value inBounds = m.both(m.inRange(h, height), m.inRange(w, width));
        Value v = tensor::ExtractOp::create(
            b, l, x,
            ValueRange{m.index(0), m.index(1), m.select(inBounds, h, m.c(0)),
                       m.select(inBounds, w, m.c(0))});
        Value idx = arith::IndexCastOp::create(
            b, l, i64, m.add(m.mul(kh, m.c(kernel[1])), kw));
        // Order-independent form of PyTorch's sequential rule
        // `if (v > max || isnan(v)) take`: NaN beats numbers and the later
        // NaN wins; among equal numbers the earlier index wins.
        auto fcmp = [&](arith::CmpFPredicate p, Value a, Value c) -> Value {
          return arith::CmpFOp::create(b, l, p, a, c);
        };
        Value vNan = fcmp(arith::CmpFPredicate::UNO, v, v);
        Value accNum = fcmp(arith::CmpFPredicate::ORD, acc, acc);
        Value later =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, idx, best);
        Value earlier =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx, best);
        Value nanWins = m.either(accNum, later);
        Value numWins =
            m.either(fcmp(arith::CmpFPredicate::OGT, v, acc),
                     m.both(fcmp(arith::CmpFPredicate::OEQ, v, acc), earlier));
        Value none =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, best,
                                  arith::ConstantIntOp::create(b, l, i64, 0));
        Value take =
            m.both(inBounds, m.either(none, m.select(vNan, nanWins, numWins)));
        return {m.select(take, v, acc), m.select(take, idx, best)};
      });
  Value best = argmax[1];

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
