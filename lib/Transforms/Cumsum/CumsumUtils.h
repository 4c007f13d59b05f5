//===- CumsumUtils.h - prefix sums of cumsum and its gradient ---*- C++ -*-===//
//
// rlx.cumsum (a forward prefix sum) and rlx.cumsum_backward (a reverse one)
// are the same computation with the direction flipped; both rewrites build it
// here.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_CUMSUM_CUMSUMUTILS_H
#define RLX_LIB_TRANSFORMS_CUMSUM_CUMSUMUTILS_H

#include "mlir/IR/Builders.h"

namespace mlir::rlx {

/// The cumulative sum of `x` along the (verified, possibly negative) `axis`,
/// L long, for rlx.cumsum and rlx.cumsum_backward:
///   forward (reverse = false): y_i = sum_{j <= i} x_j   (j < i if exclusive)
///   reverse:                   y_i = sum_{j >= i} x_j   (j > i if exclusive)
/// With L static, x is viewed as [M, L] (axis moved last, leading dims
/// collapsed) and multiplied by a constant triangular ones-matrix
/// T[j, i] = (j <= i) (or <, >=, >) built by one linalg.generic from
/// linalg.index:
/// - L > blockLength > 0 (and blockLength <= matrixMaxLength): blockwise, a
///   matmul of [M * ceil(L / B), B] blocks with the B x B matrix plus the
///   exclusive sum of the block totals, B FLOPs per element;
/// - otherwise, L <= matrixMaxLength: one matmul with the L x L matrix.
/// Before both, along the last axis with L > blockLength and a static
/// number of rows M that 16 divides: tiles of whole multiples of 16 rows by
/// a chunk of L (tileBytes at most; 0 = never), each transposed, scanned
/// across its rows (one vector add per step, the running sums carried from
/// tile to tile) and transposed back, the blocks of rows on threads.
/// Otherwise (and for a dynamic L) an O(L) scf.for scan carries the running
/// sum of one slice along the axis. The IR size does not grow with L.
Value buildCumsum(OpBuilder &b, Location loc, Value x, int64_t axis,
                  bool exclusive, bool reverse, int64_t matrixMaxLength,
                  int64_t blockLength, int64_t tileBytes);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_CUMSUM_CUMSUMUTILS_H
