//===- DecomposeQuantizeBackward.cpp - fake_quantize gradients ------------===//
//
// dx = factor(x, s) * dy with the scale s = max|x| / qmax recomputed from x
// (QuantizeUtils.h) and the factor of the straight-through estimator:
//
//   identity:          1                 (no IR: dx = dy)
//   clipped_identity:  |x| <= qmax*s
//   tanh:              1 - tanh(x/s)^2
//   hard_tanh:         max(0, 1 - |x|/(qmax*s))
//   s == 0:            1
//
// qmax*s is max|x| in exact arithmetic, so we use max|x| itself as the bound:
// qmax * (max|x| / qmax) can round below max|x| and would zero the gradient
// of the largest element.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Quantize/QuantizeUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::rlx;

/// The STE gradient factor(x, s) * dy for scalars, with bound = qmax*s =
/// max|x| (s != 0 assumed; the caller selects dy where s == 0).
static Value buildSteGradient(OpBuilder &b, Location l, Ste ste, Value x,
                              Value dy, Value s, Value bound) {
  Type t = x.getType();
  Value zero = floatConst(b, l, t, 0.0), one = floatConst(b, l, t, 1.0);
  switch (ste) {
  case Ste::identity:
    return dy;
  case Ste::clipped_identity: {
    // dy where |x| <= qmax*s else 0.
    Value inRange = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE,
                                          math::AbsFOp::create(b, l, x), bound);
    return arith::SelectOp::create(b, l, inRange, dy, zero);
  }
  case Ste::tanh: {
    // dy * (1 - tanh(x/s)^2).
    Value th = math::TanhOp::create(b, l, arith::DivFOp::create(b, l, x, s));
    Value f =
        arith::SubFOp::create(b, l, one, arith::MulFOp::create(b, l, th, th));
    return arith::MulFOp::create(b, l, f, dy);
  }
  case Ste::hard_tanh: {
    // dy * max(0, 1 - |x|/(qmax*s)).
    Value r = arith::DivFOp::create(b, l, math::AbsFOp::create(b, l, x), bound);
    Value f = arith::MaximumFOp::create(b, l, zero,
                                        arith::SubFOp::create(b, l, one, r));
    return arith::MulFOp::create(b, l, f, dy);
  }
  }
  return dy;
}

/// identity: dx = dy, no IR. Otherwise one reduction generic (max|x|, per
/// tensor or per channel) and one broadcasting generic over (x, dy):
/// s = max|x|/qmax, dx = (s == 0) ? dy : factor(x, s) * dy.
static FailureOr<SmallVector<Value>>
decomposeFakeQuantizeBackward(RewriterBase &rewriter, FakeQuantizeBackwardOp op,
                              const DecompositionOptions &) {
  std::optional<int64_t> axis = quantizeAxis(op.getX(), op.getAxis());
  Ste ste = op.getSte();
  if (ste == Ste::identity)
    return SmallVector<Value>{op.getDy()};

  Location loc = op.getLoc();
  AbsMax absMax = buildAbsMax(rewriter, loc, op.getX(), axis);
  Value dx = buildBroadcastElementwise(
      rewriter, loc, {op.getX(), op.getDy()}, {absMax.value},
      absMax.reducedDims,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value x = args[0], dy = args[1];
        Type t = x.getType();
        Value s = buildScale(b, l, args[2], op.getBits());
        Value grad = buildSteGradient(b, l, ste, x, dy, s, /*bound=*/args[2]);
        Value sIsZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                              s, floatConst(b, l, t, 0.0));
        return arith::SelectOp::create(b, l, sIsZero, dy, grad);
      });
  return SmallVector<Value>{dx};
}

using QuantizeDecompositions = DecompositionList<
    Decomposition<FakeQuantizeBackwardOp, decomposeFakeQuantizeBackward>>;

void mlir::rlx::populateQuantizeDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  QuantizeDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachQuantizeDecompositionModels(MLIRContext *ctx) {
  QuantizeDecompositions::attachModels(ctx);
}
