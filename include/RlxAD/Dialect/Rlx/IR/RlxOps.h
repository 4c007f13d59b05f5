//===- RlxOps.h - every rlx op ----------------------------------*- C++ -*-===//
//
// Umbrella header. Code that works on one family includes that family's
// header (RlxNormOps.h, ...) instead, so that it rebuilds only when that
// family's ODS changes.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXOPS_H
#define RLXAD_DIALECT_RLX_IR_RLXOPS_H

// Rlx<Family>Ops.h for every family of RLX_OP_FAMILIES (CMakeLists.txt).
#define GET_RLX_FAMILY_HEADERS
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXOPS_H
