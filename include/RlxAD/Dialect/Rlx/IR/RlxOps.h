//===- RlxOps.h - every rlx op ------------------------------------*- C++ -*-===//
//
// Umbrella header. Code that works on one family includes that family's
// header (RlxNormOps.h, ...) instead, so that it rebuilds only when that
// family's ODS changes.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXOPS_H
#define RLXAD_DIALECT_RLX_IR_RLXOPS_H

#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"

#endif // RLXAD_DIALECT_RLX_IR_RLXOPS_H
