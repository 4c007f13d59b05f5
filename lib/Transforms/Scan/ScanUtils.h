//===- ScanUtils.h - shared by the scan lowering and gradients --*- C++ -*-===//
//
// rlx.scan (LowerScan.cpp) and rlx.scan_backward(_xs)
// (DecomposeScanBackward.cpp) both clone a region once per step (or once
// into a loop body) and move rows in and out of stacked [rows, ...] tensors.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_SCAN_SCANUTILS_H
#define RLX_LIB_TRANSFORMS_SCAN_SCANUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::rlx {

/// Clones the ops of `region`'s single block for step `t` at `b`'s
/// insertion point, its arguments replaced by (carry, row t of every xs
/// typed as the region's step arguments, extra...), and returns the values
/// its rlx.yield yields. Values defined above the region are used as they
/// are.
SmallVector<Value> cloneScanStep(OpBuilder &b, Location loc, Region &region,
                                 Value carry, ValueRange xs, OpFoldResult t,
                                 ValueRange extra = {});

/// Row `index` of `stacked` ([R, d1, ...]) as a tensor of `rowType`
/// ([d1, ...], compatible): tensor.extract_slice dropping the leading unit
/// dim, then tensor.cast if the types differ in static information.
Value extractRow(OpBuilder &b, Location loc, Value stacked, OpFoldResult index,
                 Type rowType);

/// `stacked` with row `index` replaced by `row` (tensor.insert_slice).
Value insertRow(OpBuilder &b, Location loc, Value row, Value stacked,
                OpFoldResult index);

/// tensor.empty [rows, *shape of like] with like's element type.
Value emptyStacked(OpBuilder &b, Location loc, int64_t rows, Value like);

/// `next` copied into the loop-carried tensor `iterArg` (linalg.copy), so
/// that the loop yields a value equivalent to its iter_arg: the carry a
/// region computes is a fresh tensor, which one-shot bufferization rejects
/// as a loop yield (allow-return-allocs-from-loops is off by default).
Value yieldInPlace(OpBuilder &b, Location loc, Value next, Value iterArg);

/// The first step of segment `j` (index value): ceil(j * L / R) with
/// R = scanTrajectoryRows(L, K), the runtime form of scanSegmentBegin.
Value buildSegmentBegin(OpBuilder &b, Location loc, Value j, int64_t length,
                        int64_t numCheckpoints);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_SCAN_SCANUTILS_H
