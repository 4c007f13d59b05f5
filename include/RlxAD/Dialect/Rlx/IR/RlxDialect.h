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

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h.inc"
#include "RlxAD/Dialect/Rlx/IR/RlxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxAttrs.h.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXDIALECT_H
