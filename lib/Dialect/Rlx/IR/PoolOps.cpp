//===- PoolOps.cpp - Pool op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"

#include "FamilyRegistration.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// The window geometry of max_pool2d and its gradient.
struct PoolGeometry {
  ArrayRef<int64_t> kernel, stride, padding, dilation;
  bool ceilMode;

  template <typename OpTy> static PoolGeometry of(OpTy op) {
    return {op.getKernelSize(), op.getStride(), op.getPadding(),
            op.getDilation(), op.getCeilMode()};
  }
};
} // namespace

/// kernel_size >= 1, stride >= 1, padding >= 0, dilation >= 1 (two values
/// each) and padding <= kernel_size / 2 per dimension (PyTorch's rule).
static LogicalResult verifyPoolGeometry(Operation *op, const PoolGeometry &g) {
  ArrayRef<int64_t> kernel = g.kernel, padding = g.padding;
  if (failed(verifyHw(op, "kernel_size", kernel, 1)) ||
      failed(verifyHw(op, "stride", g.stride, 1)) ||
      failed(verifyHw(op, "padding", padding, 0)) ||
      failed(verifyHw(op, "dilation", g.dilation, 1)))
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
                                       const PoolGeometry &g) {
  ArrayRef<int64_t> kernel = g.kernel, padding = g.padding;
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
        !slidingExtents(in, kernel[d], padding[d], g.dilation[d]))
      return op->emitOpError() << "expects dim " << 2 + d << " of 'x' (" << in
                               << ") plus twice the padding (" << padding[d]
                               << ") and the dilated window to fit in 64 bits";
    if (ShapedType::isDynamic(in)) {
      // The contract checks at run time what the verifier checks below.
      MLIRContext *ctx = op->getContext();
      if (failed(verifyDimRelation(
              op, ShapeRelation::Kind::AtMost, {{x, "x", 2 + d}},
              getAffineConstantExpr(1, ctx), getAffineSymbolExpr(0, ctx),
              "expects dim " + Twine(2 + d) + " of 'x' to be non-zero")) ||
          failed(verifyWindowSweep(op, {out, outName, 2 + d}, {x, "x", 2 + d},
                                   {}, kernel[d], g.stride[d], padding[d],
                                   g.dilation[d], g.ceilMode)))
        return failure();
      continue;
    }
    std::optional<int64_t> size = slidingOutputSize(
        in, kernel[d], g.stride[d], padding[d], g.dilation[d], g.ceilMode);
    if (!size)
      return op->emitOpError() << "expects dim " << 2 + d << " of 'x' (" << in
                               << ") plus twice the padding (" << padding[d]
                               << ") to hold at least one window of "
                               << kernel[d] << " dilated by " << g.dilation[d];
    if (failed(verifyDimEquals(op, out, outName, 2 + d, *size, kWhat[d])))
      return failure();
  }
  return success();
}

LogicalResult MaxPool2dOp::verify() {
  PoolGeometry g = PoolGeometry::of(*this);
  if (failed(verifyPoolGeometry(*this, g)))
    return failure();
  return verifyPooledShape(*this, getX(), getY(), "result", g);
}

LogicalResult MaxPool2dBackwardOp::verify() {
  PoolGeometry g = PoolGeometry::of(*this);
  if (failed(verifyPoolGeometry(*this, g)) ||
      failed(verifyPooledShape(*this, getX(), getDy(), "dy", g)) ||
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
