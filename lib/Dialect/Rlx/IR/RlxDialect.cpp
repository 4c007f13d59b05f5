//===- RlxDialect.cpp - rlx dialect registration ---------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rlx;

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.cpp.inc"
#include "RlxAD/Dialect/Rlx/IR/RlxEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxAttrs.cpp.inc"

void RlxDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxAttrs.cpp.inc"
      >();
  // One list per op family; an empty family adds nothing.
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.cpp.inc"
      >();
}
