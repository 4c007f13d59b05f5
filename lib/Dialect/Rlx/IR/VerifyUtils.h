//===- VerifyUtils.h - diagnostics shared by the rlx verifiers -*- C++ -*-===//
//
// Every helper emits an op error that names the operand/attribute and the
// problem, and returns failure; verifiers chain them with `failed(...)`.
// Dynamic dimensions are always accepted.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_DIALECT_VERIFYUTILS_H
#define RLX_LIB_DIALECT_VERIFYUTILS_H

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
