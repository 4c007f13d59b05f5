//===- PoolUtils.cpp - shared mathematics of the pool family ---------===//
#include "Pool/PoolUtils.h"

#include "Common/Builders.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

Value mlir::rlx::buildWindowArgmax(OpBuilder &b0, Location loc, Value x,
                                   Value dy, const PoolGeometry &geometry) {
  ArrayRef<int64_t> kernel = geometry.kernel;
  MLIRContext *ctx = b0.getContext();
  Type i64 = b0.getI64Type();
  Value height = linalg::createOrFoldDimOp(b0, loc, x, 2);
  Value width = linalg::createOrFoldDimOp(b0, loc, x, 3);
  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(ctx, d0, d1, d2, d3, d4, d5);
  AffineMap windowMap = AffineMap::get(6, 0, {d4, d5}, ctx);
  AffineMap outerMap = AffineMap::get(6, 0, {d0, d1, d2, d3}, ctx);

  // 1. (max, argmax) of every window, the argmax as kh*kW + kw (-1: none yet).
  Value window = tensor::EmptyOp::create(b0, loc, kernel, b0.getI1Type());
  Value maxInit = filled(b0, loc, emptyLike(b0, loc, dy),
                         -std::numeric_limits<double>::infinity());
  Value argInit =
      linalg::FillOp::create(
          b0, loc, ValueRange{arith::ConstantIntOp::create(b0, loc, i64, -1)},
          ValueRange{emptyLike(b0, loc, dy, i64)})
          .getResult(0);
  // Loops (n, c, ho, wo, kh, kw); kh and kw reduce (no output uses them).
  SmallVector<Value> argmax = buildGeneric(
      b0, loc, {{window, windowMap}},
      {{maxInit, outerMap}, {argInit, outerMap}},
      [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
        IndexMath m{b, l};
        Value acc = args[1], best = args[2];
        Value kh = m.index(4), kw = m.index(5);
        auto [h, w] = geometry.tapPosition(m, kh, kw);
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
  return argmax[1];
}
