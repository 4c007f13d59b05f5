//===- RlxPoolOps.h - Pool ops and their gradients -*- C++ -*-===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXPOOLOPS_H
#define RLXAD_DIALECT_RLX_IR_RLXPOOLOPS_H

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXPOOLOPS_H
