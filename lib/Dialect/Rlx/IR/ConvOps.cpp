//===- ConvOps.cpp - Conv op verifiers ------------------===//
//
// The three conv ops relate the same triple of tensors: an input [N,Ci,H,W],
// a weight [Co,Ci/g,kH,kW] and an output [N,Co,Ho,Wo]; they differ only in
// which of the three is the result. One helper checks the triple.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"

#include "FamilyRegistration.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// stride >= 1, padding >= 0, dilation >= 1 (two values each), groups >= 1.
static LogicalResult verifyConvGeometry(Operation *op, ArrayRef<int64_t> stride,
                                        ArrayRef<int64_t> padding,
                                        ArrayRef<int64_t> dilation,
                                        int64_t groups) {
  if (failed(verifyHw(op, "stride", stride, 1)) ||
      failed(verifyHw(op, "padding", padding, 0)) ||
      failed(verifyHw(op, "dilation", dilation, 1)))
    return failure();
  if (groups < 1)
    return op->emitOpError() << "expects 'groups' to be >= 1, got " << groups;
  return success();
}

/// Checks input `in` [N,Ci,H,W], weight `w` [Co,Ci/g,kH,kW] and output `out`
/// [N,Co,Ho,Wo] (named as given) against each other and the geometry.
static LogicalResult
verifyConvTriple(Operation *op, Value in, StringRef inName, Value w,
                 StringRef wName, Value out, StringRef outName,
                 ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                 ArrayRef<int64_t> dilation, int64_t groups) {
  if (failed(verifyRank(op, in, inName, 4)) ||
      failed(verifyRank(op, w, wName, 4)) ||
      failed(verifyRank(op, out, outName, 4)) ||
      failed(verifySameElementType(op, in, inName, w, wName)) ||
      failed(verifySameElementType(op, in, inName, out, outName)) ||
      failed(verifyConvGeometry(op, stride, padding, dilation, groups)))
    return failure();

  auto inType = cast<ShapedType>(in.getType());
  auto wType = cast<ShapedType>(w.getType());

  // Channels: Ci and Co divisible by groups, w dim 1 == Ci / groups.
  auto divisible = [&](Value value, StringRef name, int64_t dim,
                       StringRef what) -> LogicalResult {
    int64_t c = cast<ShapedType>(value.getType()).getDimSize(dim);
    if (ShapedType::isDynamic(c)) // checked at run time
      return verifyDimDivisible(op, value, name, dim, groups, "'groups'");
    if (c % groups == 0)
      return success();
    return op->emitOpError()
           << "expects " << what << " (dim " << dim << " of '" << name << "', "
           << c << ") to be divisible by 'groups' (" << groups << ")";
  };
  if (failed(divisible(in, inName, 1, "Ci")) ||
      failed(divisible(w, wName, 0, "Co")) ||
      failed(divisible(out, outName, 1, "Co")))
    return failure();
  int64_t ci = inType.getDimSize(1);
  if (!ShapedType::isDynamic(ci) &&
      failed(verifyDimEquals(op, w, wName, 1, ci / groups, "Ci / groups")))
    return failure();
  MLIRContext *ctx = op->getContext();
  if (ShapedType::isDynamic(ci) &&
      failed(verifyDimRelation(
          op, ShapeRelation::Kind::Equal, {{w, wName, 1}, {in, inName, 1}},
          getAffineSymbolExpr(0, ctx) * groups, getAffineSymbolExpr(1, ctx),
          "expects dim 1 of '" + wName + "' times 'groups' (" + Twine(groups) +
              ") to equal dim 1 of '" + inName + "'")))
    return failure();
  if (failed(verifyDimsMatch(op, out, outName, 0, in, inName, 0)) ||
      failed(verifyDimsMatch(op, out, outName, 1, w, wName, 0)))
    return failure();

  // Spatial sizes: Ho = floor((H + 2p - d(k-1) - 1) / s) + 1.
  for (int64_t i = 0; i < 2; ++i) {
    StringRef axis = i == 0 ? "height" : "width";
    int64_t h = inType.getDimSize(2 + i), k = wType.getDimSize(2 + i);
    if (!ShapedType::isDynamic(k) && k < 1)
      return op->emitOpError()
             << "expects the kernel " << axis << " (dim " << 2 + i << " of '"
             << wName << "') to be >= 1, got " << k;
    if (ShapedType::isDynamic(k)) {
      // The kernel size is known at run time only: the contract checks it.
      if (failed(verifyDimRelation(
              op, ShapeRelation::Kind::AtMost, {{w, wName, 2 + i}},
              getAffineConstantExpr(1, ctx), getAffineSymbolExpr(0, ctx),
              "expects the kernel " + Twine(axis) + " (dim " + Twine(2 + i) +
                  " of '" + wName + "') to be >= 1")) ||
          failed(verifyWindowSweep(op, {out, outName, 2 + i},
                                   {in, inName, 2 + i}, {w, wName, 2 + i}, 0,
                                   stride[i], padding[i], dilation[i])))
        return failure();
      continue;
    }
    // Huge attributes must not wrap the size arithmetic of the rewrites.
    if (!slidingExtents(ShapedType::isDynamic(h) ? 0 : h, k, padding[i],
                        dilation[i]))
      return op->emitOpError()
             << "expects the padded input " << axis << " (" << inName << " dim "
             << 2 + i << " + 2*" << padding[i]
             << ") and the dilated kernel window (" << dilation[i] << "*(" << k
             << "-1)+1) to fit in 64 bits";
    if (ShapedType::isDynamic(h)) {
      if (failed(verifyWindowSweep(op, {out, outName, 2 + i},
                                   {in, inName, 2 + i}, {}, k, stride[i],
                                   padding[i], dilation[i])))
        return failure();
      continue;
    }
    std::optional<int64_t> ho =
        slidingOutputSize(h, k, stride[i], padding[i], dilation[i]);
    if (!ho)
      return op->emitOpError()
             << "expects the padded input " << axis << " (" << h << " + 2*"
             << padding[i] << ") to hold one dilated kernel window ("
             << dilation[i] * (k - 1) + 1 << ")";
    if (failed(verifyDimEquals(op, out, outName, 2 + i, *ho,
                               (Twine("the output ") + axis +
                                " floor((H + 2p - d(k-1) - 1) / s) + 1 of '" +
                                inName + "'")
                                   .str())))
      return failure();
  }
  return success();
}

LogicalResult Conv2dOp::verify() {
  return verifyConvTriple(*this, getX(), "x", getW(), "w", getY(), "y",
                          getStride(), getPadding(), getDilation(),
                          getGroups());
}

LogicalResult Conv2dBackwardInputOp::verify() {
  return verifyConvTriple(*this, getDx(), "dx", getW(), "w", getDy(), "dy",
                          getStride(), getPadding(), getDilation(),
                          getGroups());
}

LogicalResult Conv2dBackwardWeightOp::verify() {
  return verifyConvTriple(*this, getX(), "x", getDw(), "dw", getDy(), "dy",
                          getStride(), getPadding(), getDilation(),
                          getGroups());
}

LogicalResult Conv2dBackwardBiasOp::verify() {
  if (failed(verifyRank(*this, getDy(), "dy", 4)) ||
      failed(verifyRank(*this, getDb(), "db", 1)) ||
      failed(verifySameElementType(*this, getDy(), "dy", getDb(), "db")))
    return failure();
  return verifyDimsMatch(*this, getDb(), "db", 0, getDy(), "dy", 1);
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.cpp.inc"

void RlxDialect::registerConvOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.cpp.inc"
      >();
}
