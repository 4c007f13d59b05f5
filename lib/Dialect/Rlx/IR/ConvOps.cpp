//===- ConvOps.cpp - Conv op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.cpp.inc"
