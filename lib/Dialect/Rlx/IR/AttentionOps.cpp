//===- AttentionOps.cpp - Attention op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.cpp.inc"
