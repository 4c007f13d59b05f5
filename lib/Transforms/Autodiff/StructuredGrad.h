//===- StructuredGrad.h - adjoints of structured (linalg) ops ---*- C++ -*-===//
//
// The reverse rule of a linalg structured op with a scalar arith/math body
// and projected-permutation indexing maps, shared by every linalg op (named
// ops through their bodies) and by arith/math ops on tensors (as an
// elementwise body). The adjoint of operand k is one linalg.generic over the
// forward loops that recomputes the body, runs its scalar reverse rules, and
// writes through operand k's map; the loops that map omits (a broadcast
// input, a reduction) become reductions of the adjoint.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_AUTODIFF_STRUCTUREDGRAD_H
#define RLX_LIB_TRANSFORMS_AUTODIFF_STRUCTUREDGRAD_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::rlx {

/// A structured computation: operands (inputs, then the output inits), one
/// indexing map each (a non-shaped scalar operand has a map with no
/// results), a body whose arguments are the operand elements and whose
/// terminator yields the output elements, and the results.
struct StructuredView {
  SmallVector<Value> operands;
  unsigned numInputs = 0;
  SmallVector<AffineMap> maps;
  Block *body = nullptr;
  SmallVector<Value> results;
  bool hasReduction = false;
};

/// The reverse rule of a structured computation (see the file comment).
/// Emits an error on `op` and fails for a body or map it cannot
/// differentiate.
LogicalResult buildStructuredAdjoint(OpBuilder &b, Operation *op,
                                     const StructuredView &view,
                                     ArrayRef<Value> resultCotangents,
                                     ArrayRef<bool> needed,
                                     SmallVectorImpl<Value> &operandCotangents);

/// The scalar reverse rule of an arith/math op on scalars: the adjoints of
/// its operands (null where none flows) from those of its results. Fails,
/// without a diagnostic, for an op it does not know that has a float
/// operand.
LogicalResult buildScalarAdjoint(OpBuilder &b, Operation *op,
                                 ArrayRef<Value> resultAdjoints,
                                 SmallVectorImpl<Value> &operandAdjoints);

/// Attach the models of the upstream ops (LinalgGrad.cpp, TensorGrad.cpp,
/// ArithGrad.cpp).
void attachLinalgGradModels(MLIRContext *ctx);
void attachTensorGradModels(MLIRContext *ctx);
void attachArithGradModels(MLIRContext *ctx);
void attachMathGradModels(MLIRContext *ctx);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_AUTODIFF_STRUCTUREDGRAD_H
