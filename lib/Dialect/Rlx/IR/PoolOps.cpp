//===- PoolOps.cpp - Pool op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"

#include "FamilyRegistration.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// kernel_size >= 1, stride >= 1, padding >= 0 (two values each) and
/// padding <= kernel_size / 2 per dimension (PyTorch's rule).
static LogicalResult verifyPoolGeometry(Operation *op, ArrayRef<int64_t> kernel,
                                        ArrayRef<int64_t> stride,
                                        ArrayRef<int64_t> padding) {
  if (failed(verifyHw(op, "kernel_size", kernel, 1)) ||
      failed(verifyHw(op, "stride", stride, 1)) ||
      failed(verifyHw(op, "padding", padding, 0)))
    return failure();
  for (int64_t d = 0; d < 2; ++d)
    if (padding[d] > kernel[d] / 2)
      return op->emitOpError()
             << "expects 'padding' to be at most half of 'kernel_size', got "
             << padding[d] << " > " << kernel[d] << "/2 in dimension " << d;
  return success();
}

/// `out` (the pooled tensor, named `outName`) agrees with `x`: rank 4, same
/// element type, same N and C, non-empty H and W, and Ho/Wo given by the
/// window sweep when H/W are static.
static LogicalResult verifyPooledShape(Operation *op, Value x, Value out,
                                       StringRef outName,
                                       ArrayRef<int64_t> kernel,
                                       ArrayRef<int64_t> stride,
                                       ArrayRef<int64_t> padding) {
  if (failed(verifyRank(op, x, "x", 4)) ||
      failed(verifyRank(op, out, outName, 4)) ||
      failed(verifySameElementType(op, x, "x", out, outName)) ||
      failed(verifyDimsMatch(op, out, outName, 0, x, "x", 0)) ||
      failed(verifyDimsMatch(op, out, outName, 1, x, "x", 1)))
    return failure();
  auto xType = cast<ShapedType>(x.getType());
  static constexpr StringLiteral kWhat[] = {"the pooled height",
                                            "the pooled width"};
  for (int64_t d = 0; d < 2; ++d) {
    int64_t in = xType.getDimSize(2 + d);
    // As in PyTorch: a window must hold an element of x to have a maximum.
    if (in == 0)
      return op->emitOpError()
             << "expects dim " << 2 + d << " of 'x' to be non-zero";
    if (!ShapedType::isDynamic(in) &&
        !slidingExtents(in, kernel[d], padding[d], 1))
      return op->emitOpError() << "expects dim " << 2 + d << " of 'x' (" << in
                               << ") plus twice the padding (" << padding[d]
                               << ") to fit in 64 bits";
    std::optional<int64_t> size =
        slidingOutputSize(in, kernel[d], stride[d], padding[d], 1);
    if (!size)
      return op->emitOpError()
             << "expects dim " << 2 + d << " of 'x' (" << in
             << ") plus twice the padding (" << padding[d]
             << ") to hold at least one window of " << kernel[d];
    if (failed(verifyDimEquals(op, out, outName, 2 + d, *size, kWhat[d])))
      return failure();
  }
  return success();
}

LogicalResult MaxPool2dOp::verify() {
  if (failed(verifyPoolGeometry(*this, getKernelSize(), getStride(),
                                getPadding())))
    return failure();
  return verifyPooledShape(*this, getX(), getY(), "result", getKernelSize(),
                           getStride(), getPadding());
}

LogicalResult MaxPool2dBackwardOp::verify() {
  if (failed(verifyPoolGeometry(*this, getKernelSize(), getStride(),
                                getPadding())) ||
      failed(verifyPooledShape(*this, getX(), getDy(), "dy", getKernelSize(),
                               getStride(), getPadding())) ||
      failed(verifySameElementType(*this, getX(), "x", getDx(), "result")))
    return failure();
  if (failed(verifyCompatibleShapes(*this, getX(), "x", getDx(), "result")))
    return failure();
  // N and C of dy and the result agree even when x's are dynamic.
  for (int64_t d = 0; d < 2; ++d)
    if (failed(verifyDimsMatch(*this, getDy(), "dy", d, getDx(), "result", d)))
      return failure();
  return success();
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.cpp.inc"

void RlxDialect::registerPoolOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.cpp.inc"
      >();
}
