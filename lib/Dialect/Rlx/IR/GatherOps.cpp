//===- GatherOps.cpp - Gather op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.cpp.inc"
