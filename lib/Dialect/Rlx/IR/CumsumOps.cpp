//===- CumsumOps.cpp - Cumsum op verifiers --------------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// Operand and result are elementwise-compatible and `axis` names one of
/// their dimensions.
static LogicalResult verifyCumsumLike(Operation *op, Value x, int64_t axis) {
  if (failed(verifyElementwise(op)))
    return failure();
  return verifyAxis(op, axis, cast<ShapedType>(x.getType()).getRank());
}

LogicalResult CumsumOp::verify() {
  return verifyCumsumLike(*this, getX(), getAxis());
}

LogicalResult CumsumBackwardOp::verify() {
  return verifyCumsumLike(*this, getDy(), getAxis());
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.cpp.inc"

void RlxDialect::registerCumsumOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.cpp.inc"
      >();
}
