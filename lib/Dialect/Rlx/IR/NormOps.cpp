//===- NormOps.cpp - Norm op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.cpp.inc"
