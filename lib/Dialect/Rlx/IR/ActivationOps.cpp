//===- ActivationOps.cpp - relu and activation verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult ReluOp::verify() { return verifyElementwise(*this); }
LogicalResult ReluBackwardOp::verify() { return verifyElementwise(*this); }
/// The parameters `kind` takes (the attribute names of RlxActivationOps.td).
static ArrayRef<StringRef> parametersOf(ActivationKind kind) {
  static const StringRef hardtanh[] = {"min_val", "max_val"};
  static const StringRef softplus[] = {"beta", "threshold"};
  static const StringRef elu[] = {"alpha"};
  static const StringRef leakyRelu[] = {"negative_slope"};
  switch (kind) {
  case ActivationKind::hardtanh:
    return hardtanh;
  case ActivationKind::softplus:
    return softplus;
  case ActivationKind::elu:
    return elu;
  case ActivationKind::leaky_relu:
    return leakyRelu;
  default:
    return {};
  }
}

/// Each parameter present is one `kind` uses and is finite; hardtanh's
/// bounds are ordered and softplus' beta is non-zero.
template <typename OpTy> static LogicalResult verifyActivationParams(OpTy op) {
  ActivationKind kind = op.getKind();
  ArrayRef<StringRef> allowed = parametersOf(kind);
  for (auto [name, attr] :
       {std::pair<StringRef, FloatAttr>{"min_val", op.getMinValAttr()},
        {"max_val", op.getMaxValAttr()},
        {"beta", op.getBetaAttr()},
        {"threshold", op.getThresholdAttr()},
        {"alpha", op.getAlphaAttr()},
        {"negative_slope", op.getNegativeSlopeAttr()}}) {
    if (!attr)
      continue;
    if (!llvm::is_contained(allowed, name))
      return op.emitOpError()
             << "'" << name << "' is not a parameter of activation kind '"
             << stringifyActivationKind(kind) << "'";
    if (!attr.getValue().isFinite())
      return op.emitOpError() << "expects '" << name << "' to be finite, got "
                              << attr.getValueAsDouble();
  }
  auto valueOr = [](FloatAttr attr, double fallback) {
    return attr ? attr.getValueAsDouble() : fallback;
  };
  double minVal = valueOr(op.getMinValAttr(), -1.0);
  double maxVal = valueOr(op.getMaxValAttr(), 1.0);
  if (kind == ActivationKind::hardtanh && minVal > maxVal)
    return op.emitOpError() << "expects 'min_val' (" << minVal
                            << ") <= 'max_val' (" << maxVal << ")";
  if (kind == ActivationKind::softplus && valueOr(op.getBetaAttr(), 1.0) == 0.0)
    return op.emitOpError() << "expects 'beta' to be non-zero";
  return success();
}

LogicalResult ActivationOp::verify() {
  if (failed(verifyElementwise(*this)))
    return failure();
  return verifyActivationParams(*this);
}
LogicalResult ActivationBackwardOp::verify() {
  if (failed(verifyElementwise(*this)))
    return failure();
  return verifyActivationParams(*this);
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.cpp.inc"

void RlxDialect::registerActivationOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.cpp.inc"
      >();
}
