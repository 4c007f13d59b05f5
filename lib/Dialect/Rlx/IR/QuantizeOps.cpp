//===- QuantizeOps.cpp - Quantize op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.cpp.inc"
