//===- PoolOps.cpp - Pool op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.cpp.inc"
