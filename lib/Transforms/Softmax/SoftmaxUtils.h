//===- SoftmaxUtils.h - softmax statistics of the rewrites ------*- C++ -*-===//
//
// The row statistics of a max-subtracted softmax, shared by the softmax and
// cross-entropy lowerings, the cross-entropy gradient and attention:
//
//   m = max_axis(x),   s = sum_axis(exp(x - m)),   y = exp(x - m) / s
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_SOFTMAX_SOFTMAXUTILS_H
#define RLX_LIB_TRANSFORMS_SOFTMAX_SOFTMAXUTILS_H

#include "mlir/IR/Builders.h"

namespace mlir::rlx {

/// m = max of x over `axis` (x's shape without `axis`); NaN propagates.
Value buildMaxOverAxis(OpBuilder &b, Location loc, Value x, int64_t axis);

/// s = sum over `axis` of exp(x - m), with m from buildMaxOverAxis.
Value buildSumExpOverAxis(OpBuilder &b, Location loc, Value x, Value m,
                          int64_t axis);

/// e = exp(x - m) as a tensor shaped like x, m broadcast along `axis`: one
/// elementwise generic, for gradients that read e more than once.
Value buildShiftedExpOverAxis(OpBuilder &b, Location loc, Value x, Value m,
                              int64_t axis);

/// e = exp(x - m) along `axis` (m = max of x) and its sum s: softmax(x) =
/// e / s, for consumers that divide something smaller than e by s.
struct SoftmaxParts {
  Value exp, sum;
};
SoftmaxParts buildSoftmaxParts(OpBuilder &b, Location loc, Value x,
                               int64_t axis);

/// y = e / s along `axis` (buildSoftmaxParts): the max, e, its sum and one
/// broadcasting elementwise generic.
Value buildSoftmax(OpBuilder &b, Location loc, Value x, int64_t axis);

/// exp(x - m) for scalars.
Value buildShiftedExp(OpBuilder &b, Location loc, Value x, Value m);

/// (x == label) for the loop index `dim` of the enclosing linalg.generic
/// and an integer label (i32/i64, sign-extended: a negative label never
/// matches).
Value buildIsLabel(OpBuilder &b, Location loc, int64_t dim, Value label);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_SOFTMAX_SOFTMAXUTILS_H
