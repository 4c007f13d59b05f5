//===- ShapeContract.h - the dim relations an rlx op requires --*- C++ -*-===//
//
// Each rlx verifier states the relations between the dims of its operands
// and results (x and dy agree, C is divisible by num_groups, Ho follows the
// window formula, ...) through the helpers of lib/Dialect/Rlx/IR/
// VerifyUtils.h. Those it can decide statically it checks; the others are
// the op's run-time shape contract, which getShapeContract() returns, so that
// rlx-check-contracts can check them before the op runs. The verifier of
// each family is thus the one place that states its shape rules.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_DIALECT_RLX_IR_SHAPECONTRACT_H
#define RLXAD_DIALECT_RLX_IR_SHAPECONTRACT_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::rlx {

/// Dim `dim` of `value`, an operand or result of the op.
struct DimRef {
  Value value;
  int64_t dim;
};

/// `lhs <kind> rhs`, two affine expressions whose symbols s0, s1, ... are
/// `dims`; with `rhsMin` set, the right-hand side is min(rhs, rhsMin).
struct ShapeRelation {
  enum class Kind {
    Equal,      // lhs == rhs
    AtMost,     // lhs <= rhs
    EqualOrOne, // lhs == rhs or lhs == 1 (broadcast)
  };
  Kind kind = Kind::Equal;
  SmallVector<DimRef, 3> dims;
  AffineExpr lhs, rhs;
  AffineExpr rhsMin;
  /// What the verifier says when the relation fails, without the values:
  /// "expects dim 1 of 'x' to be divisible by 'num_groups' (3)".
  std::string description;
};

/// The relations between dims of `op` that its verifier could not decide
/// statically (a dynamic dim is involved). `op` must verify; ops of other
/// dialects have none.
SmallVector<ShapeRelation> getShapeContract(Operation *op);

/// Used by the verifier helpers: whether a getShapeContract() call is
/// collecting on this thread, and the relation to add to it.
bool isCollectingShapeContract();
void recordShapeRelation(ShapeRelation relation);

} // namespace mlir::rlx

#endif // RLXAD_DIALECT_RLX_IR_SHAPECONTRACT_H
