//===- VerifyUtils.h - diagnostics shared by the rlx verifiers -*- C++ -*-===//
//
// Every helper emits an op error that names the operand/attribute and the
// problem, and returns failure; verifiers chain them with `failed(...)`.
// A relation that involves a dynamic dimension is accepted and recorded in
// the op's run-time shape contract (ShapeContract.h): the verifiers are the
// one statement of each op's shape rules.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_DIALECT_VERIFYUTILS_H
#define RLX_LIB_DIALECT_VERIFYUTILS_H

#include "RlxAD/Dialect/Rlx/IR/ShapeContract.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::rlx {

/// All operands and results are ranked tensors with one element type and
/// pairwise compatible shapes (elementwise ops and their gradients).
LogicalResult verifyElementwise(Operation *op);

/// `value` (named `name` in diagnostics) has rank `rank`.
LogicalResult verifyRank(Operation *op, Value value, StringRef name,
                         int64_t rank);

/// `value` has one of the ranks in `ranks`.
LogicalResult verifyRankIn(Operation *op, Value value, StringRef name,
                           ArrayRef<int64_t> ranks);

/// Dim `da` of `a` equals dim `db` of `b` when both are static.
LogicalResult verifyDimsMatch(Operation *op, Value a, StringRef aName,
                              int64_t da, Value b, StringRef bName, int64_t db);

/// Dim `d` of `value` equals `expected` when both are static.
LogicalResult verifyDimEquals(Operation *op, Value value, StringRef name,
                              int64_t d, int64_t expected, StringRef what);

/// Dim `d` of `value` is a multiple of `divisor` (> 0), named `what`.
LogicalResult verifyDimDivisible(Operation *op, Value value, StringRef name,
                                 int64_t d, int64_t divisor, StringRef what);

/// A dim of a named value, for relations over several dims.
struct NamedDim {
  Value value;
  StringRef name;
  int64_t dim;
};

/// `lhs <kind> rhs`, affine expressions whose symbols are `dims`: checked
/// when every dim is static (the error is `description` and the dims'
/// values), recorded in the run-time shape contract otherwise.
LogicalResult verifyDimRelation(Operation *op, ShapeRelation::Kind kind,
                                ArrayRef<NamedDim> dims, AffineExpr lhs,
                                AffineExpr rhs, const Twine &description,
                                AffineExpr rhsMin = {});

/// The window sweep of a convolution or pooling along one axis: one dilated
/// window fits in the padded input, and `out` is
/// floor((in + 2*pad - dilation*(kernel-1) - 1) / stride) + 1 (with
/// `ceilMode`, PyTorch's ceil variant whose last window starts in the input
/// or the left padding). `kernel` is a
/// dim (of a weight) or, with a null value, the constant `kernelSize`.
/// Verifiers check the all-static case themselves; this states the rest.
LogicalResult verifyWindowSweep(Operation *op, NamedDim out, NamedDim in,
                                NamedDim kernel, int64_t kernelSize,
                                int64_t stride, int64_t pad, int64_t dilation,
                                bool ceilMode = false);

/// `a` and `b` have compatible shapes (same rank, equal static dims).
LogicalResult verifyCompatibleShapes(Operation *op, Value a, StringRef aName,
                                     Value b, StringRef bName);

/// `a` and `b` have the same element type.
LogicalResult verifySameElementType(Operation *op, Value a, StringRef aName,
                                    Value b, StringRef bName);

/// Normalises `axis` against `rank`; emits "axis N is out of range for rank R".
FailureOr<int64_t> verifyAxis(Operation *op, int64_t axis, int64_t rank,
                              StringRef attrName = "axis");

/// A 2-D geometry attribute: exactly two values, each >= minValue.
LogicalResult verifyHw(Operation *op, StringRef attrName,
                       ArrayRef<int64_t> values, int64_t minValue);

} // namespace mlir::rlx

#endif // RLX_LIB_DIALECT_VERIFYUTILS_H
