//===- SoftmaxOps.cpp - Softmax op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.cpp.inc"
