//===- RlxDialect.cpp - rlx dialect registration --------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"

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
  // One call per op family (RLX_OP_FAMILIES); each adds its ops.
#define RLX_FAMILY(Family) register##Family##Ops();
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"
}
