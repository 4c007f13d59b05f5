//===- RlxDialect.cpp - rlx dialect registration --------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rlx;

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.cpp.inc"
#include "RlxAD/Dialect/Rlx/IR/RlxEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxAttrs.cpp.inc"

namespace {
/// rlx ops are pure functions of their operands (and the scan regions of
/// their region arguments), so a call into a function that holds them may be
/// inlined: higher-order gradients inline a call to @f_grad before
/// differentiating the caller (rlx-grad differentiates one function body).
struct RlxInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void RlxDialect::initialize() {
  addInterfaces<RlxInlinerInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxAttrs.cpp.inc"
      >();
  // One call per op family (RLX_OP_FAMILIES); each adds its ops.
#define RLX_FAMILY(Family) register##Family##Ops();
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"
}
