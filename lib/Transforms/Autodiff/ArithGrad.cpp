//===- ArithGrad.cpp - reverse rules of arith and math ops ----------------===//
//
// The scalar rules (d = the result's adjoint):
//
//   a + b: (d, d)        a - b: (d, -d)       a * b: (d b, d a)
//   a / b: (d / b, -d a / b^2)                -a: -d
//   max(a, b): d to the larger, d/2 each on a tie (PyTorch's maximum); min
//   select(c, t, f): (-, c ? d : 0, c ? 0 : d)   extf/truncf: cast d back
//   exp: d y   exp2: d y ln2   expm1: d (y + 1)   log: d / a  log2, log10,
//   log1p: d / (1 + a)   sqrt: d / (2 y)   rsqrt: -d y^3 / 2   tanh:
//   d (1 - y^2)   sin: d cos a   cos: -d sin a   tan: d (1 + y^2)
//   atan: d / (1 + a^2)   sinh/cosh: d cosh a / d sinh a   erf:
//   d 2/sqrt(pi) exp(-a^2)   abs: d sign(a) (0 at 0)   a^b: (d b a^(b-1),
//   d y ln a)   fma(a, b, c): (d b, d a, d)   floor, ceil, round, trunc: 0
//
// Ops with no float operand (constants, int-to-float casts) pass nothing.
// On tensors, an elementwise arith/math op is differentiated as a
// linalg.generic with that op as its body (StructuredGrad.h).
//
//===----------------------------------------------------------------------===//
#include "Autodiff/StructuredGrad.h"
#include "Common/Builders.h"
#include "Common/GradGlue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

LogicalResult
mlir::rlx::buildScalarAdjoint(OpBuilder &b, Operation *op,
                              ArrayRef<Value> resultAdjoints,
                              SmallVectorImpl<Value> &operandAdjoints) {
  Location loc = op->getLoc();
  operandAdjoints.assign(op->getNumOperands(), Value());
  if (llvm::none_of(op->getOperandTypes(),
                    [](Type t) { return isa<FloatType>(t); }))
    return success();
  if (op->getNumResults() != 1 || !resultAdjoints[0])
    return op->getNumResults() == 1 ? success() : failure();
  Value d = resultAdjoints[0];
  Value y = op->getResult(0);
  Type t = d.getType();
  auto c = [&](double v) { return floatConst(b, loc, t, v); };
  auto mul = [&](Value x, Value z) -> Value {
    return arith::MulFOp::create(b, loc, x, z);
  };
  auto div = [&](Value x, Value z) -> Value {
    return arith::DivFOp::create(b, loc, x, z);
  };
  auto add = [&](Value x, Value z) -> Value {
    return arith::AddFOp::create(b, loc, x, z);
  };
  auto sub = [&](Value x, Value z) -> Value {
    return arith::SubFOp::create(b, loc, x, z);
  };
  auto neg = [&](Value x) -> Value { return arith::NegFOp::create(b, loc, x); };
  auto cmp = [&](arith::CmpFPredicate p, Value x, Value z) -> Value {
    return arith::CmpFOp::create(b, loc, p, x, z);
  };
  auto sel = [&](Value cond, Value x, Value z) -> Value {
    return arith::SelectOp::create(b, loc, cond, x, z);
  };
  auto arg = [&](unsigned i) { return op->getOperand(i); };
  auto &out = operandAdjoints;
  // max/min with PyTorch's tie rule: the winner gets d, a tie d/2 each.
  auto extremum = [&](arith::CmpFPredicate wins) {
    Value half = mul(d, c(0.5));
    Value eq = cmp(arith::CmpFPredicate::OEQ, arg(0), arg(1));
    out[0] = sel(eq, half, sel(cmp(wins, arg(0), arg(1)), d, c(0)));
    out[1] = sel(eq, half, sel(cmp(wins, arg(1), arg(0)), d, c(0)));
    return success();
  };

  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::AddFOp>([&](auto) {
        out[0] = d;
        out[1] = d;
        return success();
      })
      .Case<arith::SubFOp>([&](auto) {
        out[0] = d;
        out[1] = neg(d);
        return success();
      })
      .Case<arith::MulFOp>([&](auto) {
        out[0] = mul(d, arg(1));
        out[1] = mul(d, arg(0));
        return success();
      })
      .Case<arith::DivFOp>([&](auto) {
        out[0] = div(d, arg(1));
        out[1] = neg(div(mul(d, y), arg(1)));
        return success();
      })
      .Case<arith::NegFOp>([&](auto) {
        out[0] = neg(d);
        return success();
      })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>(
          [&](auto) { return extremum(arith::CmpFPredicate::OGT); })
      .Case<arith::MinimumFOp, arith::MinNumFOp>(
          [&](auto) { return extremum(arith::CmpFPredicate::OLT); })
      .Case<arith::SelectOp>([&](auto) {
        out[1] = sel(arg(0), d, c(0));
        out[2] = sel(arg(0), c(0), d);
        return success();
      })
      .Case<arith::ExtFOp>([&](auto) {
        out[0] = arith::TruncFOp::create(b, loc, arg(0).getType(), d);
        return success();
      })
      .Case<arith::TruncFOp>([&](auto) {
        out[0] = arith::ExtFOp::create(b, loc, arg(0).getType(), d);
        return success();
      })
      .Case<math::ExpOp>([&](auto) {
        out[0] = mul(d, y);
        return success();
      })
      .Case<math::Exp2Op>([&](auto) {
        out[0] = mul(mul(d, y), c(std::log(2.0)));
        return success();
      })
      .Case<math::ExpM1Op>([&](auto) {
        out[0] = mul(d, add(y, c(1)));
        return success();
      })
      .Case<math::LogOp>([&](auto) {
        out[0] = div(d, arg(0));
        return success();
      })
      .Case<math::Log2Op>([&](auto) {
        out[0] = div(d, mul(arg(0), c(std::log(2.0))));
        return success();
      })
      .Case<math::Log10Op>([&](auto) {
        out[0] = div(d, mul(arg(0), c(std::log(10.0))));
        return success();
      })
      .Case<math::Log1pOp>([&](auto) {
        out[0] = div(d, add(arg(0), c(1)));
        return success();
      })
      .Case<math::SqrtOp>([&](auto) {
        out[0] = div(d, mul(y, c(2)));
        return success();
      })
      .Case<math::RsqrtOp>([&](auto) {
        out[0] = mul(d, mul(mul(y, mul(y, y)), c(-0.5)));
        return success();
      })
      .Case<math::TanhOp>([&](auto) {
        out[0] = mul(d, sub(c(1), mul(y, y)));
        return success();
      })
      .Case<math::SinOp>([&](auto) {
        out[0] = mul(d, math::CosOp::create(b, loc, arg(0)));
        return success();
      })
      .Case<math::CosOp>([&](auto) {
        out[0] = neg(mul(d, math::SinOp::create(b, loc, arg(0))));
        return success();
      })
      .Case<math::TanOp>([&](auto) {
        out[0] = mul(d, add(c(1), mul(y, y)));
        return success();
      })
      .Case<math::AtanOp>([&](auto) {
        out[0] = div(d, add(c(1), mul(arg(0), arg(0))));
        return success();
      })
      .Case<math::SinhOp>([&](auto) {
        out[0] = mul(d, math::CoshOp::create(b, loc, arg(0)));
        return success();
      })
      .Case<math::CoshOp>([&](auto) {
        out[0] = mul(d, math::SinhOp::create(b, loc, arg(0)));
        return success();
      })
      .Case<math::ErfOp>([&](auto) {
        Value e = math::ExpOp::create(b, loc, neg(mul(arg(0), arg(0))));
        out[0] = mul(d, mul(e, c(2.0 / std::sqrt(M_PI))));
        return success();
      })
      .Case<math::AbsFOp>([&](auto) {
        Value zero = c(0);
        out[0] = sel(
            cmp(arith::CmpFPredicate::OGT, arg(0), zero), d,
            sel(cmp(arith::CmpFPredicate::OLT, arg(0), zero), neg(d), zero));
        return success();
      })
      .Case<math::PowFOp>([&](auto) {
        Value pm1 = math::PowFOp::create(b, loc, arg(0), sub(arg(1), c(1)));
        out[0] = mul(d, mul(arg(1), pm1));
        out[1] = mul(d, mul(y, math::LogOp::create(b, loc, arg(0))));
        return success();
      })
      .Case<math::FmaOp>([&](auto) {
        out[0] = mul(d, arg(1));
        out[1] = mul(d, arg(0));
        out[2] = d;
        return success();
      })
      .Case<math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
            math::TruncOp>([&](auto) { return success(); })
      .Default([](Operation *) { return failure(); });
}

namespace {
/// arith/math ops: on scalars the rule above; on tensors an elementwise
/// structured computation with the op as its body.
template <typename OpTy>
struct ElementwiseGradModel
    : GradOpInterface::ExternalModel<ElementwiseGradModel<OpTy>, OpTy> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &b,
                             ArrayRef<Value> resultCotangents,
                             ArrayRef<bool> needed,
                             SmallVectorImpl<Value> &operandCotangents) const {
    auto notDifferentiable = [&]() {
      return op->emitError()
             << "'" << op->getName() << "' is not differentiable";
    };
    if (op->getNumResults() != 1)
      return notDifferentiable();
    auto tensorType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!tensorType) {
      if (isa<ShapedType>(op->getResult(0).getType()) ||
          failed(
              buildScalarAdjoint(b, op, resultCotangents, operandCotangents)))
        return notDifferentiable();
      return success();
    }
    // The same op on elements, as the body of a structured computation.
    Location loc = op->getLoc();
    Region region;
    Block *block = new Block();
    region.push_back(block);
    for (Value v : op->getOperands()) {
      if (!isa<RankedTensorType>(v.getType()))
        return notDifferentiable();
      block->addArgument(getElementTypeOrSelf(v.getType()), loc);
    }
    block->addArgument(tensorType.getElementType(), loc);
    OpBuilder bb(op->getContext());
    bb.setInsertionPointToEnd(block);
    OperationState state(loc, op->getName());
    state.addOperands(block->getArguments().drop_back());
    state.addTypes(tensorType.getElementType());
    state.addAttributes(op->getAttrs());
    Operation *scalar = bb.create(state);
    linalg::YieldOp::create(bb, loc, scalar->getResults());

    StructuredView view;
    view.operands = llvm::to_vector(op->getOperands());
    view.operands.push_back(op->getResult(0)); // stands for the init
    view.numInputs = op->getNumOperands();
    view.maps.assign(view.operands.size(),
                     b.getMultiDimIdentityMap(tensorType.getRank()));
    view.body = block;
    view.results = {op->getResult(0)};
    SmallVector<bool> neededAll(needed);
    neededAll.push_back(false);
    SmallVector<Value> cotangents;
    if (failed(buildStructuredAdjoint(b, op, view, resultCotangents, neededAll,
                                      cotangents)))
      return failure();
    operandCotangents.assign(cotangents.begin(),
                             cotangents.begin() + op->getNumOperands());
    return success();
  }
};

template <typename... OpTys> void attachElementwise(MLIRContext *ctx) {
  (OpTys::template attachInterface<ElementwiseGradModel<OpTys>>(*ctx), ...);
}
} // namespace

void mlir::rlx::attachArithGradModels(MLIRContext *ctx) {
  attachElementwise<
#define GET_OP_LIST
#include "mlir/Dialect/Arith/IR/ArithOps.cpp.inc"
      >(ctx);
}

void mlir::rlx::attachMathGradModels(MLIRContext *ctx) {
  attachElementwise<
#define GET_OP_LIST
#include "mlir/Dialect/Math/IR/MathOps.cpp.inc"
      >(ctx);
}
