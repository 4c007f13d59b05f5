//===- ActivationMath.h - scalar activation functions -----------*- C++ -*-===//
//
// The scalar bodies of rlx.activation and its derivative, shared by the
// forward lowering and the backward decomposition (and by any family that
// needs, say, a sigmoid).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_ACTIVATION_ACTIVATIONMATH_H
#define RLX_LIB_TRANSFORMS_ACTIVATION_ACTIVATIONMATH_H

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::rlx {

/// act(x) for a float scalar x.
Value buildActivation(OpBuilder &b, Location loc, ActivationKind kind, Value x);

/// act'(x) for a float scalar x, with rlx's conventions at kinks:
/// abs'(0) = relu'(0) = 0, sqrt'/rsqrt' = 0 where x <= 0.
Value buildActivationDerivative(OpBuilder &b, Location loc, ActivationKind kind,
                                Value x);

/// 1 / (1 + exp(-x)).
Value buildSigmoid(OpBuilder &b, Location loc, Value x);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_ACTIVATION_ACTIVATIONMATH_H
