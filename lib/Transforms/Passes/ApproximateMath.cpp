//===- ApproximateMath.cpp - the rlx-approximate-math pass ----------------===//
//
// Upstream's polynomial approximations, except for f32 `math.exp`, which
// gets a shorter sequence of its own (ExpApproximation below): softmax,
// attention and cross-entropy spend most of their non-contraction time in
// it.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXAPPROXIMATEMATH
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
/// f32 exp(x) = p(r) * 2^n with n = round(x / ln 2) and r = x - n ln 2, in
/// 15 x86 vector instructions where upstream's ExpApproximation takes 20
/// (it clamps both x and n, rounds with math.floor and converts n with
/// fptosi; here one add rounds n into t's mantissa, which is 2^n's bits):
///
///   x' = max(x, -87.8)                      exp(-inf) = 0, not NaN
///   t  = min(x' * log2(e) + (1.5 * 2^23 + 127), 1.5 * 2^23 + 254)
///        t's mantissa holds n + 127 (the add rounds to an integer), n <= 127
///   n  = t - (1.5 * 2^23 + 127)
///   r  = x' - n * ln 2                      two FMAs (Cody and Waite)
///   p  = a degree-7 polynomial in r, Horner's rule (7 FMAs)
///   e^x = p * bitcast<f32>(bitcast<i32>(t) << 23)       2^n, or 0 if n = -127
///
/// r is in [-ln 2 / 2, ln 2 / 2] except where min caps n at 127 (x above
/// 127.5 ln 2), so p was fitted (relative minimax) on [-ln 2 / 2, ln 2]: up
/// to ln 2, p * 2^127 is exp's finite top binade; beyond (x > ln FLT_MAX) p
/// exceeds 2 and the product overflows to +inf. No other clamp is needed:
/// +inf, large x and the capped n give +inf; NaN stays NaN (the compares
/// below keep it); x < -127.5 ln 2 gets n = -127 and 0, as upstream flushes
/// results below 2^-126.5. Measured on the compiled code against f64 exp:
/// at most 0.94 ulp over normal results (test/Runtime/approximate-exp.py
/// requires <= 1 ulp).
struct ExpApproximation : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto vectorType = dyn_cast<VectorType>(type);
    if (!getElementTypeOrSelf(type).isF32() ||
        (vectorType && vectorType.isScalable()))
      return rewriter.notifyMatchFailure(op, "not f32 or fixed-vector f32");
    Location loc = op.getLoc();
    // A scalar constant, or its splat when exp is on vectors.
    auto constant = [&](float value) {
      return createScalarOrSplatConstant(rewriter, loc, type, APFloat(value));
    };
    // select(x pred bound, x, bound): unordered predicates keep a NaN x, and
    // x86 lowers the pair to one vmaxps/vminps.
    auto bound = [&](arith::CmpFPredicate predicate, Value x, float value) {
      Value limit = constant(value);
      Value keep = arith::CmpFOp::create(rewriter, loc, predicate, x, limit);
      return arith::SelectOp::create(rewriter, loc, keep, x, limit);
    };
    auto fma = [&](Value a, Value b, Value c) -> Value {
      return math::FmaOp::create(rewriter, loc, a, b, c);
    };

    constexpr float kRound = 12582912.0f; // 1.5 * 2^23
    Value x = bound(arith::CmpFPredicate::UGE, op.getOperand(), -87.8f);
    Value t = fma(x, constant(0x1.715476p+0f), constant(kRound + 127.0f));
    t = bound(arith::CmpFPredicate::ULE, t, kRound + 254.0f);
    Value n = arith::SubFOp::create(rewriter, loc, t, constant(kRound + 127));
    // ln 2 = 0.693359375 - 2.12194440e-4: n * 0.693359375 is exact.
    Value r = fma(n, constant(-0.693359375f), x);
    r = fma(n, constant(2.12194440e-4f), r);
    // p(r) ~ e^r, coefficients of r^7 down to r^0.
    static constexpr float kCoefficients[] = {
        0x1.eb34fp-13f, 0x1.6aa416p-10f, 0x1.10ce8p-7f, 0x1.55593p-5f,
        0x1.5555a2p-3f, 0x1.fffffap-2f,  1.0f,          1.0f};
    Value p = constant(kCoefficients[0]);
    for (float coefficient : ArrayRef(kCoefficients).drop_front())
      p = fma(p, r, constant(coefficient));
    Type intType = vectorType ? Type(vectorType.clone(rewriter.getI32Type()))
                              : Type(rewriter.getI32Type());
    Value bits = arith::BitcastOp::create(rewriter, loc, intType, t);
    Value shift = createScalarOrSplatConstant(rewriter, loc, intType, 23);
    Value power = arith::BitcastOp::create(
        rewriter, loc, type, arith::ShLIOp::create(rewriter, loc, bits, shift));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, p, power);
    return success();
  }
};

struct RlxApproximateMathPass
    : public rlx::impl::RlxApproximateMathBase<RlxApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // f32 exp is ours; upstream's handles only f32 too, so it is not
    // selected below (the f32 exp that its expm1 emits becomes ours).
    patterns.add<ExpApproximation>(&getContext());
    // sin/cos are left to libm: their approximations assume a small range.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return llvm::StringSwitch<bool>(name)
          .Cases({"math.tanh", "math.erf", "math.expm1", "math.log",
                  "math.log1p", "math.atan"},
                 true)
          .Default(false);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
