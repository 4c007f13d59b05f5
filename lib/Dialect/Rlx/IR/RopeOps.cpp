//===- RopeOps.cpp - rotary position embedding verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// x (named `xName`: x or dy) is [B, S, H*D] or [S, H*D] with D = headDim;
/// cos and sin are [S, D/2]; 0 <= nRot <= D, nRot even; the result has x's
/// shape; one element type throughout.
static LogicalResult verifyRope(Operation *op, Value x, StringRef xName,
                                Value cos, Value sin, Value result,
                                int64_t headDim, int64_t nRot) {
  if (headDim <= 0)
    return op->emitOpError()
           << "expects 'head_dim' to be positive, got " << headDim;
  if (nRot < 0 || nRot > headDim)
    return op->emitOpError()
           << "expects 'n_rot' to be in [0, head_dim = " << headDim << "], got "
           << nRot;
  if (nRot % 2 != 0)
    return op->emitOpError() << "expects 'n_rot' to be even, got " << nRot;
  if (failed(verifyRankIn(op, x, xName, {2, 3})) ||
      failed(verifyRank(op, cos, "cos", 2)) ||
      failed(verifyRank(op, sin, "sin", 2)))
    return failure();
  auto xType = cast<ShapedType>(x.getType());
  int64_t rank = xType.getRank();
  // The result is checked too: its dims may be static where x's are not.
  for (auto [value, name] : {std::pair<Value, StringRef>(x, xName),
                             std::pair<Value, StringRef>(result, "result")}) {
    auto type = cast<ShapedType>(value.getType());
    if (type.getRank() != rank)
      continue; // reported by verifyCompatibleShapes below
    int64_t hd = type.getDimSize(rank - 1);
    if (ShapedType::isDynamic(hd) && // checked at run time
        failed(verifyDimDivisible(op, value, name, rank - 1, headDim,
                                  "'head_dim'")))
      return failure();
    if (!ShapedType::isDynamic(hd) && hd % headDim != 0)
      return op->emitOpError()
             << "expects the last dim of '" << name << "' (" << hd
             << ") to be a multiple of 'head_dim' (" << headDim << ")";
  }
  if (failed(verifyDimsMatch(op, cos, "cos", 0, x, xName, rank - 2)) ||
      failed(verifyDimEquals(op, cos, "cos", 1, headDim / 2, "head_dim / 2")) ||
      failed(verifyCompatibleShapes(op, sin, "sin", cos, "cos")) ||
      failed(verifyCompatibleShapes(op, result, "result", x, xName)) ||
      failed(verifyDimsMatch(op, cos, "cos", 0, result, "result", rank - 2)) ||
      failed(verifySameElementType(op, cos, "cos", x, xName)) ||
      failed(verifySameElementType(op, sin, "sin", x, xName)))
    return failure();
  return verifySameElementType(op, result, "result", x, xName);
}

LogicalResult RopeOp::verify() {
  return verifyRope(*this, getX(), "x", getCos(), getSin(), getY(),
                    getHeadDim(), getNRot());
}

LogicalResult RopeBackwardOp::verify() {
  return verifyRope(*this, getDy(), "dy", getCos(), getSin(), getDx(),
                    getHeadDim(), getNRot());
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.cpp.inc"

void RlxDialect::registerRopeOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.cpp.inc"
      >();
}
