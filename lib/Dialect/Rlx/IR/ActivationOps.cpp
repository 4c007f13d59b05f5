//===- ActivationOps.cpp - relu and activation verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult ReluOp::verify() { return verifyElementwise(*this); }
LogicalResult ReluBackwardOp::verify() { return verifyElementwise(*this); }
LogicalResult ActivationOp::verify() { return verifyElementwise(*this); }
LogicalResult ActivationBackwardOp::verify() {
  return verifyElementwise(*this);
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.cpp.inc"

void RlxDialect::registerActivationOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.cpp.inc"
      >();
}
