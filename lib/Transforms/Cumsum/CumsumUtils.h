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
/// When L is static and L <= matrixMaxLength this is one matmul of x (axis
/// moved last, leading dims collapsed: [M, L]) with a constant triangular
/// ones-matrix T[j, i] = (j <= i) (or <, >=, >) built by one linalg.generic
/// from linalg.index; otherwise an O(L) scf.for scan that carries the running
/// sum of one slice along the axis. The IR size never depends on L.
Value buildCumsum(OpBuilder &b, Location loc, Value x, int64_t axis,
                  bool exclusive, bool reverse, int64_t matrixMaxLength);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_CUMSUM_CUMSUMUTILS_H
