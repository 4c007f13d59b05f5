//===- ConvUtils.cpp - IR shared by the conv lowering and gradients -------===//
#include "Conv/ConvUtils.h"
#include "Common/Builders.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

bool mlir::rlx::hasStaticConvDims(ArrayRef<Value> values) {
  return llvm::all_of(values, [](Value v) {
    auto type = cast<ShapedType>(v.getType());
    return llvm::none_of(llvm::seq<int64_t>(1, type.getRank()),
                         [&](int64_t d) { return type.isDynamicDim(d); });
  });
}

OpFoldResult mlir::rlx::convSize(OpBuilder &b, Location loc, AffineExpr expr,
                                 ArrayRef<OpFoldResult> operands) {
  SmallVector<AffineExpr> constants;
  SmallVector<Value> values;
  for (OpFoldResult operand : operands) {
    std::optional<int64_t> c = getConstantIntValue(operand);
    if (!c)
      break;
    constants.push_back(getAffineConstantExpr(*c, b.getContext()));
  }
  if (constants.size() == operands.size()) {
    AffineExpr folded = expr.replaceSymbols(constants);
    if (auto c = dyn_cast<AffineConstantExpr>(folded))
      return b.getIndexAttr(c.getValue());
  }
  for (OpFoldResult operand : operands)
    values.push_back(getValueOrCreateConstantIndexOp(b, loc, operand));
  return affine::expandAffineExpr(b, loc, expr, {}, values);
}

Value mlir::rlx::splitGroups(OpBuilder &b, Location loc, Value x, int64_t dim,
                             int64_t groups) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    OpFoldResult size = tensor::getMixedSize(b, loc, x, d);
    if (d != dim) {
      reassociation.push_back({static_cast<int64_t>(shape.size())});
      shape.push_back(type.getDimSize(d));
      sizes.push_back(size);
      continue;
    }
    reassociation.push_back({static_cast<int64_t>(shape.size()),
                             static_cast<int64_t>(shape.size()) + 1});
    OpFoldResult perGroup = convSize(
        b, loc, getAffineSymbolExpr(0, b.getContext()).floorDiv(groups),
        {size});
    shape.push_back(groups);
    shape.push_back(
        getConstantIntValue(perGroup).value_or(ShapedType::kDynamic));
    sizes.push_back(b.getIndexAttr(groups));
    sizes.push_back(perGroup);
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), x,
                                       reassociation, sizes);
}

Value mlir::rlx::buildGeneralConv2d(OpBuilder &b, Location loc, Value input,
                                    Value filter, int64_t groups,
                                    ArrayRef<int64_t> stride,
                                    ArrayRef<int64_t> dilation) {
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<ShapedType>(input.getType()).getElementType();
  Value inG = splitGroups(b, loc, input, 1, groups); // [N, G, C, Hp, Wp]
  Value fG = splitGroups(b, loc, filter, 0, groups); // [G, F, C, kH, kW]
  AffineExpr s0 = getAffineSymbolExpr(0, ctx), s1 = getAffineSymbolExpr(1, ctx);
  SmallVector<OpFoldResult> outSizes = {tensor::getMixedSize(b, loc, input, 0),
                                        b.getIndexAttr(groups),
                                        tensor::getMixedSize(b, loc, fG, 1)};
  for (int64_t i = 0; i < 2; ++i)
    outSizes.push_back(convSize(
        b, loc, (s0 - (s1 - 1) * dilation[i] - 1).floorDiv(stride[i]) + 1,
        {tensor::getMixedSize(b, loc, input, 2 + i),
         tensor::getMixedSize(b, loc, filter, 2 + i)}));
  // Loops (n, g, f, i, j, c, a, b).
  AffineExpr n, g, f, i, j, c, ka, kb;
  bindDims(ctx, n, g, f, i, j, c, ka, kb);
  AffineMap inMap = AffineMap::get(8, 0,
                                   {n, g, c, i * stride[0] + ka * dilation[0],
                                    j * stride[1] + kb * dilation[1]},
                                   ctx);
  AffineMap fMap = AffineMap::get(8, 0, {g, f, c, ka, kb}, ctx);
  AffineMap outMap = AffineMap::get(8, 0, {n, g, f, i, j}, ctx);
  Value init = filled(
      b, loc, tensor::EmptyOp::create(b, loc, outSizes, elementType), 0.0);
  Value out =
      buildMultiplyAccumulate(b, loc, {fG, fMap}, {inG, inMap}, {init, outMap});
  return tensor::CollapseShapeOp::create(
      b, loc, out, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

Value mlir::rlx::padSpatial(OpBuilder &b, Location loc, Value x,
                            ArrayRef<int64_t> low, ArrayRef<int64_t> high) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t i = 0; i < 2; ++i)
    if (!type.isDynamicDim(2 + i))
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

bool mlir::rlx::prefersChannelsLast(int64_t channels) {
  return channels > 0 && channels % 16 == 0;
}

Value mlir::rlx::swapTrailingDims(OpBuilder &b, Location loc, Value x,
                                  int64_t outer, int64_t split) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  ArrayRef<int64_t> shape = type.getShape();
  // The swapped groups are static (only an outer dim may be dynamic).
  auto product = [&](int64_t from, int64_t to) {
    int64_t p = 1;
    for (int64_t d = from; d < to; ++d)
      p *= shape[d];
    return p;
  };
  auto group = [](int64_t from, int64_t to) {
    ReassociationIndices dims;
    for (int64_t d = from; d < to; ++d)
      dims.push_back(d);
    return dims;
  };
  // [outer dims..., A, B] with A = [outer, split), B = [split, rank).
  SmallVector<ReassociationIndices> collapse;
  SmallVector<int64_t> flatShape;
  for (int64_t d = 0; d < outer; ++d) {
    collapse.push_back({d});
    flatShape.push_back(shape[d]);
  }
  collapse.push_back(group(outer, split));
  collapse.push_back(group(split, rank));
  flatShape.push_back(product(outer, split));
  flatShape.push_back(product(split, rank));
  Value flat = tensor::CollapseShapeOp::create(b, loc, type.clone(flatShape), x,
                                               collapse);

  SmallVector<int64_t> permutation;
  SmallVector<OpFoldResult> swappedSizes;
  for (int64_t d = 0; d < outer; ++d) {
    permutation.push_back(d);
    swappedSizes.push_back(tensor::getMixedSize(b, loc, x, d));
  }
  permutation.push_back(outer + 1);
  permutation.push_back(outer);
  swappedSizes.push_back(b.getIndexAttr(flatShape[outer + 1]));
  swappedSizes.push_back(b.getIndexAttr(flatShape[outer]));
  Value init =
      tensor::EmptyOp::create(b, loc, swappedSizes, type.getElementType());
  Value swapped = linalg::TransposeOp::create(b, loc, flat, init, permutation)
                      .getResult()[0];

  // Expand back: [outer dims..., B dims..., A dims...].
  SmallVector<ReassociationIndices> expand;
  SmallVector<int64_t> outShape;
  SmallVector<OpFoldResult> outSizes;
  for (int64_t d = 0; d < outer; ++d) {
    expand.push_back({d});
    outShape.push_back(shape[d]);
    outSizes.push_back(swappedSizes[d]);
  }
  for (auto [from, to] : {std::pair(split, rank), std::pair(outer, split)}) {
    expand.push_back(group(outShape.size(), outShape.size() + to - from));
    for (int64_t d = from; d < to; ++d) {
      outShape.push_back(shape[d]);
      outSizes.push_back(b.getIndexAttr(shape[d]));
    }
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(outShape), swapped,
                                       expand, outSizes);
}

/// The channels-last direct convolution (see buildDirectConv2d).
static Value buildChannelsLastConv2d(OpBuilder &b, Location loc, Value input,
                                     Value filter, int64_t groups,
                                     ArrayRef<int64_t> stride,
                                     ArrayRef<int64_t> dilation,
                                     ArrayRef<int64_t> outSpatial) {
  MLIRContext *ctx = b.getContext();
  auto fType = cast<RankedTensorType>(filter.getType());
  Type elementType = fType.getElementType();
  int64_t g = groups, cig = fType.getDimSize(1), cog = fType.getDimSize(0) / g;
  // [G*F, C, kH, kW] -> [G, F, C, kH, kW] -> [G, C, kH, kW, F].
  Value filterG = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get(
          {g, cog, cig, fType.getDimSize(2), fType.getDimSize(3)}, elementType),
      filter, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  Value filterT = swapTrailingDims(b, loc, filterG, 1, 2);
  // Loops (n, g, i, j, f, c, a, b).
  AffineExpr n, gg, i, j, f, c, ka, kb;
  bindDims(ctx, n, gg, i, j, f, c, ka, kb);
  AffineMap inMap =
      AffineMap::get(8, 0,
                     {n, gg * cig + c, i * stride[0] + ka * dilation[0],
                      j * stride[1] + kb * dilation[1]},
                     ctx);
  AffineMap fMap = AffineMap::get(8, 0, {gg, c, ka, kb, f}, ctx);
  AffineMap outMap = AffineMap::get(8, 0, {n, gg, i, j, f}, ctx);
  Value init =
      filled(b, loc,
             tensor::EmptyOp::create(
                 b, loc,
                 ArrayRef<OpFoldResult>{
                     tensor::getMixedSize(b, loc, input, 0), b.getIndexAttr(g),
                     b.getIndexAttr(outSpatial[0]),
                     b.getIndexAttr(outSpatial[1]), b.getIndexAttr(cog)},
                 elementType),
             0.0);
  Value out = buildMultiplyAccumulate(b, loc, {input, inMap}, {filterT, fMap},
                                      {init, outMap});
  // [N, G, Ho, Wo, F] -> [N, G, F, Ho, Wo] -> [N, G*F, Ho, Wo].
  return tensor::CollapseShapeOp::create(
      b, loc, swapTrailingDims(b, loc, out, 2, 4),
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

Value mlir::rlx::buildDirectConv2d(OpBuilder &b, Location loc, Value input,
                                   Value filter, int64_t groups,
                                   ArrayRef<int64_t> stride,
                                   ArrayRef<int64_t> dilation,
                                   bool channelsLast) {
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
  if (channelsLast && prefersChannelsLast(cog))
    return buildChannelsLastConv2d(b, loc, input, filter, groups, stride,
                                   dilation, outSpatial);
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
  Value out = buildMultiplyAccumulate(b, loc, {filter, fMap}, {input, inMap},
                                      {init, outMap});
  return tensor::CollapseShapeOp::create(
      b, loc, out, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}
