//===- SoftmaxUtils.cpp - softmax statistics shared by the rewrites -------===//
#include "Softmax/SoftmaxUtils.h"

#include "Common/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

Value mlir::rlx::buildShiftedExp(OpBuilder &b, Location loc, Value x, Value m) {
  return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, m));
}

Value mlir::rlx::buildMaxOverAxis(OpBuilder &b, Location loc, Value x,
                                  int64_t axis) {
  // m = max(m, x), m initially -inf. maxnumf, which skips NaNs, not
  // maximumf: a NaN in the row still makes every result of the row NaN
  // (exp(NaN - m) makes the sum NaN), and maxnumf is two instructions per
  // vector fewer on x86.
  AffineMap id =
      b.getMultiDimIdentityMap(cast<ShapedType>(x.getType()).getRank());
  return buildReduction(
      b, loc, x, {axis}, {{x, id}}, {-std::numeric_limits<double>::infinity()},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> SmallVector<Value> {
        return {arith::MaxNumFOp::create(nb, nloc, args[0], args[1])};
      })[0];
}

Value mlir::rlx::buildSumExpOverAxis(OpBuilder &b, Location loc, Value x,
                                     Value m, int64_t axis) {
  // s += exp(x - m), s initially 0.
  AffineMap id =
      b.getMultiDimIdentityMap(cast<ShapedType>(x.getType()).getRank());
  return buildReduction(
      b, loc, x, {axis}, {{x, id}, {m, id.dropResults(axis)}}, {0.0},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> SmallVector<Value> {
        Value e = buildShiftedExp(nb, nloc, args[0], args[1]);
        return {arith::AddFOp::create(nb, nloc, args[2], e)};
      })[0];
}

Value mlir::rlx::buildShiftedExpOverAxis(OpBuilder &b, Location loc, Value x,
                                         Value m, int64_t axis) {
  return buildBroadcastElementwise(
      b, loc, {x}, {m}, {axis},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return buildShiftedExp(nb, nloc, args[0], args[1]);
      });
}

SoftmaxParts mlir::rlx::buildSoftmaxParts(OpBuilder &b, Location loc, Value x,
                                          int64_t axis) {
  // e = exp(x - m) once: the sum and the quotient read it (rlx-fuse-rows
  // keeps its row block in cache), half the exponentials of computing it
  // for each.
  Value m = buildMaxOverAxis(b, loc, x, axis);
  Value e = buildShiftedExpOverAxis(b, loc, x, m, axis);
  return {e, buildSum(b, loc, e, {axis})};
}

Value mlir::rlx::buildSoftmax(OpBuilder &b, Location loc, Value x,
                              int64_t axis) {
  auto [e, s] = buildSoftmaxParts(b, loc, x, axis);
  return buildBroadcastElementwise(
      b, loc, {e}, {s}, {axis},
      [](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, nloc, args[0], args[1]);
      });
}

Value mlir::rlx::buildIsLabel(OpBuilder &b, Location loc, int64_t dim,
                              Value label) {
  Value index = linalg::IndexOp::create(b, loc, dim);
  Value labelIndex =
      arith::IndexCastOp::create(b, loc, b.getIndexType(), label);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                               labelIndex);
}
