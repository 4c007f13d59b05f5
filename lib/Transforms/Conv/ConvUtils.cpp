//===- ConvUtils.cpp - IR shared by the conv lowering and gradients -------===//
#include "Conv/ConvUtils.h"
#include "Common/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult mlir::rlx::requireStaticConvDims(RewriterBase &rewriter,
                                               Operation *op, Value value,
                                               StringRef name,
                                               bool includeBatch) {
  auto type = cast<ShapedType>(value.getType());
  for (int64_t d = includeBatch ? 0 : 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "requires static "
             << (includeBatch ? "sizes" : "channel and spatial sizes")
             << " of '" << name << "' (dim " << d << " is dynamic"
             << (includeBatch ? "" : "; only the batch dim may be") << ")";
      });
  return success();
}

Value mlir::rlx::padSpatial(OpBuilder &b, Location loc, Value x,
                            ArrayRef<int64_t> low, ArrayRef<int64_t> high) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t i = 0; i < 2; ++i)
    shape[2 + i] += low[i] + high[i];
  SmallVector<OpFoldResult> lo = {b.getIndexAttr(0), b.getIndexAttr(0),
                                  b.getIndexAttr(low[0]),
                                  b.getIndexAttr(low[1])};
  SmallVector<OpFoldResult> hi = {b.getIndexAttr(0), b.getIndexAttr(0),
                                  b.getIndexAttr(high[0]),
                                  b.getIndexAttr(high[1])};
  Value zero = floatConst(b, loc, type.getElementType(), 0.0);
  return tensor::PadOp::create(b, loc, type.clone(shape), x, lo, hi, zero);
}

Value mlir::rlx::buildGroupedConv2d(OpBuilder &b, Location loc, Value input,
                                    Value filter, int64_t groups,
                                    ArrayRef<int64_t> stride,
                                    ArrayRef<int64_t> dilation) {
  auto inType = cast<RankedTensorType>(input.getType());
  auto fType = cast<RankedTensorType>(filter.getType());
  Type elementType = inType.getElementType();
  int64_t outChannels = fType.getDimSize(0);
  SmallVector<int64_t> outSpatial;
  for (int64_t i = 0; i < 2; ++i)
    outSpatial.push_back((inType.getDimSize(2 + i) -
                          dilation[i] * (fType.getDimSize(2 + i) - 1) - 1) /
                             stride[i] +
                         1);

  SmallVector<Value> dynBatch;
  if (inType.isDynamicDim(0))
    dynBatch.push_back(tensor::DimOp::create(b, loc, input, 0));
  auto outType = RankedTensorType::get(
      {inType.getDimSize(0), outChannels, outSpatial[0], outSpatial[1]},
      elementType);
  Attribute strides = b.getI64VectorAttr(stride);
  Attribute dilations = b.getI64VectorAttr(dilation);

  if (groups == 1) {
    Value init =
        filled(b, loc, tensor::EmptyOp::create(b, loc, outType, dynBatch), 0.0);
    return linalg::Conv2DNchwFchwOp::create(
               b, loc, TypeRange{outType}, ValueRange{input, filter},
               ValueRange{init}, strides, dilations)
        .getResult(0);
  }

  // [N, G*C, H, W] -> [N, G, C, H, W] and [G*F, C, kH, kW] -> [G, F, C, kH,
  // kW].
  int64_t g = groups;
  auto inGType =
      RankedTensorType::get({inType.getDimSize(0), g, inType.getDimSize(1) / g,
                             inType.getDimSize(2), inType.getDimSize(3)},
                            elementType);
  Value inG = tensor::ExpandShapeOp::create(
      b, loc, inGType, input,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  auto fGType =
      RankedTensorType::get({g, outChannels / g, fType.getDimSize(1),
                             fType.getDimSize(2), fType.getDimSize(3)},
                            elementType);
  Value fG = tensor::ExpandShapeOp::create(
      b, loc, fGType, filter,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  auto outGType = RankedTensorType::get(
      {inType.getDimSize(0), g, outChannels / g, outSpatial[0], outSpatial[1]},
      elementType);
  Value init =
      filled(b, loc, tensor::EmptyOp::create(b, loc, outGType, dynBatch), 0.0);
  Value outG = linalg::Conv2DNgchwGfchwOp::create(
                   b, loc, TypeRange{outGType}, ValueRange{inG, fG},
                   ValueRange{init}, strides, dilations)
                   .getResult(0);
  return tensor::CollapseShapeOp::create(
      b, loc, outG, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

Value mlir::rlx::buildDirectConv2d(OpBuilder &b, Location loc, Value input,
                                   Value filter, int64_t groups,
                                   ArrayRef<int64_t> stride,
                                   ArrayRef<int64_t> dilation) {
  MLIRContext *ctx = b.getContext();
  auto inType = cast<RankedTensorType>(input.getType());
  auto fType = cast<RankedTensorType>(filter.getType());
  Type elementType = inType.getElementType();
  int64_t outChannels = fType.getDimSize(0), g = groups;
  int64_t cig = fType.getDimSize(1), cog = outChannels / g;
  SmallVector<int64_t> outSpatial;
  for (int64_t i = 0; i < 2; ++i)
    outSpatial.push_back((inType.getDimSize(2 + i) -
                          dilation[i] * (fType.getDimSize(2 + i) - 1) - 1) /
                             stride[i] +
                         1);
  OpFoldResult batch = tensor::getMixedSize(b, loc, input, 0);

  // Loops (n, g, f, i, j, c, a, b).
  AffineExpr n, gg, f, i, j, c, ka, kb;
  bindDims(ctx, n, gg, f, i, j, c, ka, kb);
  AffineExpr row = i * stride[0] + ka * dilation[0];
  AffineMap inMap;
  int64_t s = stride[1];
  if (s == 1) {
    inMap =
        AffineMap::get(8, 0, {n, gg * cig + c, row, j + kb * dilation[1]}, ctx);
  } else {
    // Pad W to s * Q, then xw[n, ch, h, p, q] = input[n, ch, h, p + s*q].
    int64_t w = inType.getDimSize(3), q = llvm::divideCeil(w, s);
    input = padSpatial(b, loc, input, {0, 0}, {0, s * q - w});
    AffineExpr e0, e1, e2, e3, e4;
    bindDims(ctx, e0, e1, e2, e3, e4);
    Value xwInit = tensor::EmptyOp::create(
        b, loc,
        ArrayRef<OpFoldResult>{batch, b.getIndexAttr(inType.getDimSize(1)),
                               b.getIndexAttr(inType.getDimSize(2)),
                               b.getIndexAttr(s), b.getIndexAttr(q)},
        elementType);
    input = buildGeneric(
        b, loc, {{input, AffineMap::get(5, 0, {e0, e1, e2, e3 + e4 * s}, ctx)}},
        {{xwInit, AffineMap::getMultiDimIdentityMap(5, ctx)}},
        [](OpBuilder &, Location, ValueRange args) {
          return SmallVector<Value>{args[0]};
        })[0];
    AffineExpr tap = kb * dilation[1];
    inMap = AffineMap::get(
        8, 0, {n, gg * cig + c, row, tap % s, j + tap.floorDiv(s)}, ctx);
  }
  AffineMap fMap = AffineMap::get(8, 0, {gg * cog + f, c, ka, kb}, ctx);
  AffineMap outMap = AffineMap::get(8, 0, {n, gg, f, i, j}, ctx);
  Value init = filled(
      b, loc,
      tensor::EmptyOp::create(
          b, loc,
          ArrayRef<OpFoldResult>{batch, b.getIndexAttr(g), b.getIndexAttr(cog),
                                 b.getIndexAttr(outSpatial[0]),
                                 b.getIndexAttr(outSpatial[1])},
          elementType),
      0.0);
  Value out = buildGeneric(
      b, loc, {{filter, fMap}, {input, inMap}}, {{init, outMap}},
      [](OpBuilder &bb, Location l, ValueRange args) {
        Value prod = arith::MulFOp::create(bb, l, args[0], args[1]);
        return SmallVector<Value>{
            arith::AddFOp::create(bb, l, args[2], prod).getResult()};
      })[0];
  return tensor::CollapseShapeOp::create(
      b, loc, out, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}
