//===- RlxSoftmaxOps.h - Softmax ops and their gradients -*- C++ -*-===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXSOFTMAXOPS_H
#define RLXAD_DIALECT_RLX_IR_RLXSOFTMAXOPS_H

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXSOFTMAXOPS_H
