//===- QuantizeOps.cpp - fake quantisation verifiers ----------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// Operands and result elementwise-compatible, bits in {2, 4, 8}, the
/// optional axis in range for x's rank.
static LogicalResult verifyFakeQuantize(Operation *op, Value x, int64_t bits,
                                        std::optional<int64_t> axis) {
  if (failed(verifyElementwise(op)))
    return failure();
  if (bits != 2 && bits != 4 && bits != 8)
    return op->emitOpError() << "expects 'bits' to be 2, 4 or 8, got " << bits;
  if (axis &&
      failed(verifyAxis(op, *axis, cast<ShapedType>(x.getType()).getRank())))
    return failure();
  return success();
}

LogicalResult FakeQuantizeOp::verify() {
  return verifyFakeQuantize(*this, getX(), getBits(), getAxis());
}

LogicalResult FakeQuantizeBackwardOp::verify() {
  return verifyFakeQuantize(*this, getX(), getBits(), getAxis());
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.cpp.inc"

void RlxDialect::registerQuantizeOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.cpp.inc"
      >();
}
