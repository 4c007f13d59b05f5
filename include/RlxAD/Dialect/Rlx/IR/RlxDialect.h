//===- RlxDialect.h - the rlx dialect, its enums and attributes -*- C++ -*-===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXDIALECT_H
#define RLXAD_DIALECT_RLX_IR_RLXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::rlx {
/// Every ranked tensor operand and result of `op` has a byte size (static
/// dims times element bytes, dynamic dims counted as 1) that fits in int64:
/// allocation sizes computed from such a type cannot wrap. Verified for
/// every rlx op through the Forward/Backward traits.
LogicalResult verifyTensorByteSizes(Operation *op);
} // namespace mlir::rlx

namespace mlir::rlx::OpTrait {
/// A forward op (Rlx_Forward in RlxBase.td): rlx-lower-to-linalg lowers it.
template <typename ConcreteType>
class Forward : public ::mlir::OpTrait::TraitBase<ConcreteType, Forward> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyTensorByteSizes(op);
  }
};

/// A gradient op (Rlx_Backward in RlxBase.td): rlx-decompose-backward
/// decomposes it, and it implements linalg::AggregatedOpInterface.
template <typename ConcreteType>
class Backward : public ::mlir::OpTrait::TraitBase<ConcreteType, Backward> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyTensorByteSizes(op);
  }
};
} // namespace mlir::rlx::OpTrait

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h.inc"
#include "RlxAD/Dialect/Rlx/IR/RlxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxAttrs.h.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXDIALECT_H
