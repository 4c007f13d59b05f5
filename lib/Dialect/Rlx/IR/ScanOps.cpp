//===- ScanOps.cpp - Scan op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"

#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.cpp.inc"
