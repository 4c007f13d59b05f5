//===- RopeOps.cpp - Rope op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.cpp.inc"
