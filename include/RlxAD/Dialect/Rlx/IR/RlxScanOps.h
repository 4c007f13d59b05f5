//===- RlxScanOps.h - Scan ops and their gradients -*- C++ -*-===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXSCANOPS_H
#define RLXAD_DIALECT_RLX_IR_RLXSCANOPS_H

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cstdint>

namespace mlir::rlx {

/// Checkpoint arithmetic of rlx.scan (L = length >= 1, K = num_checkpoints in
/// [0, L]). The trajectory has scanTrajectoryRows(L, K) rows; its row k holds
/// the carry after step scanSegmentBegin(k + 1, L, K) - 1. Segment j
/// (0 <= j < rows) is the steps [scanSegmentBegin(j), scanSegmentBegin(j+1)):
/// its first step starts from row j - 1 (or init for j = 0) and its last step
/// produces row j.

/// L when K is 0 or L (every carry is saved), else K.
inline int64_t scanTrajectoryRows(int64_t length, int64_t numCheckpoints) {
  return numCheckpoints == 0 || numCheckpoints == length ? length
                                                         : numCheckpoints;
}

/// ceil(j * L / R) with R = scanTrajectoryRows(L, K): the first step of
/// segment j (scanSegmentBegin(R) = L).
inline int64_t scanSegmentBegin(int64_t j, int64_t length,
                                int64_t numCheckpoints) {
  int64_t rows = scanTrajectoryRows(length, numCheckpoints);
  return (j * length + rows - 1) / rows;
}

} // namespace mlir::rlx

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h.inc"

#endif // RLXAD_DIALECT_RLX_IR_RLXSCANOPS_H
