//===- QuantizeUtils.cpp - fake-quantisation scale, shared ----------------===//
#include "Quantize/QuantizeUtils.h"

#include "Common/Builders.h"

#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::rlx;

std::optional<int64_t> mlir::rlx::quantizeAxis(Value x,
                                               std::optional<int64_t> axis) {
  if (!axis)
    return std::nullopt;
  return verifiedAxis(*axis, cast<ShapedType>(x.getType()).getRank());
}

int64_t mlir::rlx::quantizeQmax(int64_t bits) {
  return (int64_t(1) << (bits - 1)) - 1;
}

AbsMax mlir::rlx::buildAbsMax(OpBuilder &b, Location loc, Value x,
                              std::optional<int64_t> axis) {
  AbsMax result;
  for (int64_t d = 0, e = cast<ShapedType>(x.getType()).getRank(); d < e; ++d)
    if (d != axis)
      result.reducedDims.push_back(d);
  // m = max(m, |x|), m initially 0.
  AffineMap id =
      b.getMultiDimIdentityMap(cast<ShapedType>(x.getType()).getRank());
  result.value = buildReduction(
      b, loc, x, result.reducedDims, {{x, id}}, {0.0},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> SmallVector<Value> {
        Value a = math::AbsFOp::create(nb, nloc, args[0]);
        return {arith::MaximumFOp::create(nb, nloc, args[1], a)};
      })[0];
  return result;
}

Value mlir::rlx::buildScale(OpBuilder &b, Location loc, Value absMax,
                            int64_t bits) {
  Value qmax = floatConst(b, loc, absMax.getType(),
                          static_cast<double>(quantizeQmax(bits)));
  return arith::DivFOp::create(b, loc, absMax, qmax);
}
