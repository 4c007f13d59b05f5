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

namespace mlir::rlx::OpTrait {
/// A forward op (Rlx_Forward in RlxBase.td): rlx-lower-to-linalg lowers it.
template <typename ConcreteType>
class Forward : public ::mlir::OpTrait::TraitBase<ConcreteType, Forward> {};

/// A gradient op (Rlx_Backward in RlxBase.td): rlx-decompose-backward
/// decomposes it, and it implements linalg::AggregatedOpInterface.
template <typename ConcreteType>
class Backward : public ::mlir::OpTrait::TraitBase<ConcreteType, Backward> {};
} // namespace mlir::rlx::OpTrait

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h.inc"
#include "RlxAD/Dialect/Rlx/IR/RlxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxAttrs.h.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXDIALECT_H
