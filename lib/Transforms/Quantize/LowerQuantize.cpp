//===- LowerQuantize.cpp - fake_quantize to linalg ------------------------===//
//
// One reduction generic for max|x| (QuantizeUtils.h), then one broadcasting
// elementwise generic:
//
//   s = max|x| / qmax,  y = (s == 0) ? x : clamp(roundeven(x/s), -qmax, qmax) *
//   s
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

static FailureOr<SmallVector<Value>>
lowerFakeQuantize(RewriterBase &rewriter, FakeQuantizeOp op,
                  const LoweringOptions &) {
  std::optional<int64_t> axis = quantizeAxis(op.getX(), op.getAxis());
  Location loc = op.getLoc();
  double qmax = static_cast<double>(quantizeQmax(op.getBits()));
  AbsMax absMax = buildAbsMax(rewriter, loc, op.getX(), axis);
  Value y = buildBroadcastElementwise(
      rewriter, loc, {op.getX()}, {absMax.value}, absMax.reducedDims,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value x = args[0];
        Type t = x.getType();
        Value s = buildScale(b, l, args[1], op.getBits());
        Value q =
            math::RoundEvenOp::create(b, l, arith::DivFOp::create(b, l, x, s));
        q = arith::MaximumFOp::create(b, l, q, floatConst(b, l, t, -qmax));
        q = arith::MinimumFOp::create(b, l, q, floatConst(b, l, t, qmax));
        Value sIsZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                              s, floatConst(b, l, t, 0.0));
        return arith::SelectOp::create(b, l, sIsZero, x,
                                       arith::MulFOp::create(b, l, q, s));
      });
  return SmallVector<Value>{y};
}

void mlir::rlx::populateQuantizeLoweringPatterns(
    RewritePatternSet &patterns, const LoweringOptions &options) {
  addLoweringPatterns<Lowering<FakeQuantizeOp, lowerFakeQuantize>>(patterns,
                                                                   options);
}
