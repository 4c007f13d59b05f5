//===- CumsumOps.cpp - Cumsum op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.cpp.inc"
