//===- RopeUtils.cpp - the rotary-embedding rotation, shared --------------===//
#include "Rope/RopeUtils.h"

#include "Common/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
