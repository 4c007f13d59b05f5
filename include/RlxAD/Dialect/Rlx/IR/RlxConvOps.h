//===- RlxConvOps.h - Conv ops and their gradients -*- C++ -*-===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXCONVOPS_H
#define RLXAD_DIALECT_RLX_IR_RLXCONVOPS_H

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXCONVOPS_H
