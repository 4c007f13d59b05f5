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

/// The parameters of the parameterised kinds, with PyTorch's defaults (the
/// values an absent attribute stands for).
struct ActivationParams {
  double minVal = -1.0, maxVal = 1.0;  // hardtanh
  double beta = 1.0, threshold = 20.0; // softplus
  double alpha = 1.0;                  // elu
  double negativeSlope = 0.01;         // leaky_relu

  /// The parameters of an rlx.activation / rlx.activation_backward.
  template <typename OpTy> static ActivationParams of(OpTy op) {
    auto set = [](double &field, FloatAttr attr) {
      if (attr)
        field = attr.getValueAsDouble();
    };
    ActivationParams p;
    set(p.minVal, op.getMinValAttr());
    set(p.maxVal, op.getMaxValAttr());
    set(p.beta, op.getBetaAttr());
    set(p.threshold, op.getThresholdAttr());
    set(p.alpha, op.getAlphaAttr());
    set(p.negativeSlope, op.getNegativeSlopeAttr());
    return p;
  }
};

/// act(x) for a float scalar x.
Value buildActivation(OpBuilder &b, Location loc, ActivationKind kind, Value x,
                      const ActivationParams &params = {});

/// act'(x) for a float scalar x, with rlx's conventions at kinks (those of
/// PyTorch's backward kernels): abs'(0) = relu'(0) = 0, sqrt'/rsqrt' = 0
/// where x <= 0, hardtanh'/relu6' = 0 at the bounds, elu'(0) = alpha,
/// leaky_relu'(0) = negative_slope, hardswish'(-3) = -1/2, hardsigmoid' = 0
/// at +-3.
Value buildActivationDerivative(OpBuilder &b, Location loc, ActivationKind kind,
                                Value x, const ActivationParams &params = {});

/// 1 / (1 + exp(-x)).
Value buildSigmoid(OpBuilder &b, Location loc, Value x);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_ACTIVATION_ACTIVATIONMATH_H
