//===- DecomposeConvBackward.cpp - Conv gradients --------------===//
//
// conv2d_backward_weight: im2col + matmul.
//
//   col[g, (n,i,j), (c,a,b)] = xp[n, g*Cig + c, i*s + a*d, j*s + b*d]
//                              (one linalg.generic on the padded input)
//   dyT[co, (n,i,j)]         = dy[n, co, i, j]   (linalg.transpose + collapse)
//   dw[g*Cog + o, (c,a,b)]   = sum_{(n,i,j)} dyT[g*Cog + o, (n,i,j)]
//                                            * col[g, (n,i,j), (c,a,b)]
//                              (linalg.matmul, batch_matmul over groups)
//
// With im2col-max-elements the batch dimension is tiled by an scf.for that
// accumulates into the [Co, Cig*kH*kW] result.
//
// conv2d_backward_input: the transposed convolution. dy is dilated by the
// stride (zeros inserted) and padded by d(k-1) - p on each side (one strided
// tensor.insert_slice into a zero tensor; negative padding crops dy first),
// then convolved, stride 1 and dilation d, with the kernel flipped in kH, kW
// and its channels swapped per group:
//
//   wf[g*Cig + c, o, a, b] = w[g*Cog + o, c, kH-1-a, kW-1-b]
//   dx = conv(dyz, wf, groups = G)
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Conv/ConvUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// conv2d_backward_input
//===----------------------------------------------------------------------===//

/// dx[n, g*Cig + c, h, v] = sum dy[n, g*Cog + o, i, j] * w[g*Cog + o, c, a, b]
/// over i*s - p + a*d = h, j*s - p + b*d = v, as the stride-1 convolution of
/// the zero-dilated, (d(k-1) - p)-padded dy with the flipped kernel.
static FailureOr<SmallVector<Value>>
decomposeConv2dBackwardInput(RewriterBase &rewriter, Conv2dBackwardInputOp op,
                             const DecompositionOptions &) {
  if (failed(requireStaticConvDims(rewriter, op, op.getDy(), "dy",
                                   /*includeBatch=*/false)) ||
      failed(requireStaticConvDims(rewriter, op, op.getW(), "w",
                                   /*includeBatch=*/true)) ||
      failed(requireStaticConvDims(rewriter, op, op.getDx(), "dx",
                                   /*includeBatch=*/false)))
    return failure();

  Location loc = op.getLoc();
  Value dy = op.getDy(), w = op.getW();
  auto dyType = cast<RankedTensorType>(dy.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto dxType = cast<RankedTensorType>(op.getDx().getType());
  Type elementType = dyType.getElementType();
  ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding(),
                    dilation = op.getDilation();
  int64_t groups = op.getGroups();
  int64_t co = wType.getDimSize(0), cig = wType.getDimSize(1),
          cog = co / groups;
  SmallVector<int64_t> k = {wType.getDimSize(2), wType.getDimSize(3)};

  // Per spatial axis: dy row i lands at row pl + i*s of the zero tensor of
  // length L = H + d(k-1) (pl = d(k-1) - p); rows outside [0, L) only ever
  // met padding in the forward pass and are cropped.
  SmallVector<int64_t> length(2), first(2), count(2), offset(2);
  for (int64_t i = 0; i < 2; ++i) {
    int64_t span = dilation[i] * (k[i] - 1);
    int64_t pl = span - padding[i];
    length[i] = dxType.getDimSize(2 + i) + span;
    first[i] = pl >= 0 ? 0 : llvm::divideCeilSigned(-pl, stride[i]);
    int64_t end =
        std::min(dyType.getDimSize(2 + i),
                 llvm::divideFloorSigned(length[i] - 1 - pl, stride[i]) + 1);
    count[i] = std::max<int64_t>(end - first[i], 0);
    offset[i] = pl + first[i] * stride[i];
  }

  // dyz: dy dilated by the stride and padded, in one strided insert_slice.
  OpFoldResult batch = tensor::getMixedSize(rewriter, loc, dy, 0);
  OpFoldResult zeroIdx = rewriter.getIndexAttr(0),
               oneIdx = rewriter.getIndexAttr(1);
  Value dyz;
  bool cropped = first[0] != 0 || first[1] != 0 ||
                 count[0] != dyType.getDimSize(2) ||
                 count[1] != dyType.getDimSize(3);
  bool identity = !cropped && offset[0] == 0 && offset[1] == 0 &&
                  stride[0] == 1 && stride[1] == 1 && count[0] == length[0] &&
                  count[1] == length[1];
  if (identity) {
    dyz = dy;
  } else {
    Value zeros =
        filled(rewriter, loc,
               tensor::EmptyOp::create(
                   rewriter, loc,
                   ArrayRef<OpFoldResult>{batch, rewriter.getIndexAttr(co),
                                          rewriter.getIndexAttr(length[0]),
                                          rewriter.getIndexAttr(length[1])},
                   elementType),
               0.0);
    dyz = zeros;
    if (count[0] > 0 && count[1] > 0) {
      SmallVector<OpFoldResult> sizes = {batch, rewriter.getIndexAttr(co),
                                         rewriter.getIndexAttr(count[0]),
                                         rewriter.getIndexAttr(count[1])};
      Value src = dy;
      if (cropped)
        src = tensor::ExtractSliceOp::create(
            rewriter, loc, dy,
            {zeroIdx, zeroIdx, rewriter.getIndexAttr(first[0]),
             rewriter.getIndexAttr(first[1])},
            sizes, {oneIdx, oneIdx, oneIdx, oneIdx});
      dyz = tensor::InsertSliceOp::create(
          rewriter, loc, src, zeros,
          {zeroIdx, zeroIdx, rewriter.getIndexAttr(offset[0]),
           rewriter.getIndexAttr(offset[1])},
          sizes,
          {oneIdx, oneIdx, rewriter.getIndexAttr(stride[0]),
           rewriter.getIndexAttr(stride[1])});
    }
  }

  // wf[g, c, o, a, b] = w[g*Cog + o, c, kH-1-a, kW-1-b], then
  // [G, Cig, Cog, kH, kW] -> [Ci, Cog, kH, kW].
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr g, c, o, a, b;
  bindDims(ctx, g, c, o, a, b);
  AffineMap flipMap =
      AffineMap::get(5, 0, {g * cog + o, c, k[0] - 1 - a, k[1] - 1 - b}, ctx);
  auto wfType =
      RankedTensorType::get({groups, cig, cog, k[0], k[1]}, elementType);
  Value wfInit =
      tensor::EmptyOp::create(rewriter, loc, wfType.getShape(), elementType);
  Value wf = buildGeneric(rewriter, loc, {{w, flipMap}},
                          {{wfInit, AffineMap::getMultiDimIdentityMap(5, ctx)}},
                          [](OpBuilder &, Location, ValueRange args) {
                            return SmallVector<Value>{args[0]};
                          })[0];
  wf = tensor::CollapseShapeOp::create(
      rewriter, loc, wf,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});

  Value dx =
      buildGroupedConv2d(rewriter, loc, dyz, wf, groups, {1, 1}, dilation);
  return SmallVector<Value>{dx};
}

//===----------------------------------------------------------------------===//
// conv2d_backward_weight
//===----------------------------------------------------------------------===//

namespace {
/// The static sizes of a conv2d_backward_weight.
struct WeightGradShape {
  int64_t groups, ci, cig, co, cog, kh, kw, ho, wo;
  int64_t k() const { return cig * kh * kw; }
};
} // namespace

/// acc += dyT(dys) x im2col(xs) for one batch slice xs [n, Ci, H, W],
/// dys [n, Co, Ho, Wo]; acc is [Co, K] (groups == 1) or [G, Cog, K].
static Value accumulateWeightGrad(OpBuilder &b, Location loc,
                                  Conv2dBackwardWeightOp op,
                                  const WeightGradShape &s, Value xs, Value dys,
                                  Value acc) {
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<ShapedType>(xs.getType()).getElementType();
  ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
  Value xp = padSpatial(b, loc, xs, op.getPadding(), op.getPadding());
  OpFoldResult batch = tensor::getMixedSize(b, loc, xs, 0);

  // col[g, n, i, j, c, a, b] = xp[n, g*Cig + c, i*sH + a*dH, j*sW + b*dW]
  AffineExpr g, n, i, j, c, a, bb;
  bindDims(ctx, g, n, i, j, c, a, bb);
  AffineMap im2colMap =
      AffineMap::get(7, 0,
                     {n, g * s.cig + c, i * stride[0] + a * dilation[0],
                      j * stride[1] + bb * dilation[1]},
                     ctx);
  SmallVector<OpFoldResult> colSizes = {
      b.getIndexAttr(s.groups), batch,
      b.getIndexAttr(s.ho),     b.getIndexAttr(s.wo),
      b.getIndexAttr(s.cig),    b.getIndexAttr(s.kh),
      b.getIndexAttr(s.kw)};
  Value colInit = tensor::EmptyOp::create(b, loc, colSizes, elementType);
  Value col =
      buildGeneric(b, loc, {{xp, im2colMap}},
                   {{colInit, AffineMap::getMultiDimIdentityMap(7, ctx)}},
                   [](OpBuilder &, Location, ValueRange args) {
                     return SmallVector<Value>{args[0]};
                   })[0];

  // dyT[co, (n, i, j)] = dy[n, co, i, j]: a real transpose, then collapse.
  Value dyTInit = tensor::EmptyOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{b.getIndexAttr(s.co), batch, b.getIndexAttr(s.ho),
                             b.getIndexAttr(s.wo)},
      elementType);
  Value dyT = linalg::TransposeOp::create(b, loc, dys, dyTInit,
                                          ArrayRef<int64_t>{1, 0, 2, 3})
                  .getResult()[0];
  dyT = tensor::CollapseShapeOp::create(
      b, loc, dyT, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});

  if (s.groups == 1) {
    // [1, n, Ho, Wo, Ci, kH, kW] -> [n*Ho*Wo, Ci*kH*kW]; acc += dyT x col.
    col = tensor::CollapseShapeOp::create(
        b, loc, col,
        SmallVector<ReassociationIndices>{{0, 1, 2, 3}, {4, 5, 6}});
    return linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                    ValueRange{dyT, col}, ValueRange{acc})
        .getResult(0);
  }
  // [G, n*Ho*Wo, K] and [Co, n*Ho*Wo] -> [G, Cog, n*Ho*Wo]; per-group matmul.
  col = tensor::CollapseShapeOp::create(
      b, loc, col,
      SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4, 5, 6}});
  auto dyTType = cast<RankedTensorType>(dyT.getType());
  dyT = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({s.groups, s.cog, dyTType.getDimSize(1)},
                            elementType),
      dyT, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  return linalg::BatchMatmulOp::create(b, loc, TypeRange{acc.getType()},
                                       ValueRange{dyT, col}, ValueRange{acc})
      .getResult(0);
}

/// dw[co, c, a, b] = sum_{n,i,j} dy[n, co, i, j]
///                   * xp[n, g(co)*Cig + c, i*s + a*d, j*s + b*d]
/// as im2col + matmul, optionally tiled over the batch.
static FailureOr<SmallVector<Value>>
decomposeConv2dBackwardWeight(RewriterBase &rewriter, Conv2dBackwardWeightOp op,
                              const DecompositionOptions &options) {
  if (failed(requireStaticConvDims(rewriter, op, op.getX(), "x",
                                   /*includeBatch=*/false)) ||
      failed(requireStaticConvDims(rewriter, op, op.getDy(), "dy",
                                   /*includeBatch=*/false)))
    return failure();
  auto dwType = cast<RankedTensorType>(op.getDw().getType());
  if (dwType.isDynamicDim(2) || dwType.isDynamicDim(3))
    return rewriter.notifyMatchFailure(
        op, "requires a static kernel size (dims 2 and 3 of 'dw')");

  Location loc = op.getLoc();
  Value x = op.getX(), dy = op.getDy();
  auto xType = cast<RankedTensorType>(x.getType());
  auto dyType = cast<RankedTensorType>(dy.getType());
  Type elementType = xType.getElementType();

  // One batch size for both operands: a static one wins (tensor.cast), so the
  // transpose and the matmul see consistent shapes.
  int64_t batch =
      xType.isDynamicDim(0) ? dyType.getDimSize(0) : xType.getDimSize(0);
  auto withBatch = [&](Value v, RankedTensorType &type) -> Value {
    if (type.getDimSize(0) == batch)
      return v;
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = batch;
    type = type.clone(shape);
    return tensor::CastOp::create(rewriter, loc, type, v).getResult();
  };
  x = withBatch(x, xType);
  dy = withBatch(dy, dyType);
  WeightGradShape s;
  s.groups = op.getGroups();
  s.ci = xType.getDimSize(1);
  s.cig = s.ci / s.groups;
  s.co = dyType.getDimSize(1);
  s.cog = s.co / s.groups;
  s.kh = dwType.getDimSize(2);
  s.kw = dwType.getDimSize(3);
  s.ho = dyType.getDimSize(2);
  s.wo = dyType.getDimSize(3);

  // The accumulator: [Co, K], or [G, Cog, K] for the batched matmul.
  SmallVector<int64_t> accShape = {s.co, s.k()};
  if (s.groups > 1)
    accShape = {s.groups, s.cog, s.k()};
  Value acc = filled(
      rewriter, loc,
      tensor::EmptyOp::create(rewriter, loc, accShape, elementType), 0.0);

  // Tile the batch when the whole im2col buffer would exceed the cap. An
  // empty per-sample buffer (a zero-sized dim) never needs tiling; products
  // that overflow int64_t saturate (and so exceed any cap).
  std::optional<int64_t> checkedPerSample = 1;
  for (int64_t f : {s.ho, s.wo, s.ci, s.kh, s.kw})
    if (checkedPerSample)
      checkedPerSample = llvm::checkedMul(*checkedPerSample, f);
  int64_t perSample =
      checkedPerSample.value_or(std::numeric_limits<int64_t>::max());
  int64_t cap = options.im2colMaxElements;
  bool tile =
      cap > 0 && perSample > 0 &&
      (ShapedType::isDynamic(batch) || (batch > 0 && perSample > cap / batch));
  if (!tile) {
    acc = accumulateWeightGrad(rewriter, loc, op, s, x, dy, acc);
  } else {
    int64_t tileSize = std::max<int64_t>(1, cap / perSample);
    // Static batch: the largest divisor of N that fits keeps tiles static.
    if (!ShapedType::isDynamic(batch))
      while (batch % tileSize != 0)
        --tileSize;
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ub = tensor::DimOp::create(rewriter, loc, x, 0);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, tileSize);
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, ValueRange{acc},
        [&](OpBuilder &b, Location nloc, Value n0, ValueRange iterArgs) {
          // Tile size: min(T, N - n0), static when T divides a static N.
          OpFoldResult size = b.getIndexAttr(tileSize);
          if (ShapedType::isDynamic(batch))
            size = arith::MinSIOp::create(
                       b, nloc, step, arith::SubIOp::create(b, nloc, ub, n0))
                       .getResult();
          auto slice = [&](Value v) -> Value {
            auto type = cast<RankedTensorType>(v.getType());
            SmallVector<OpFoldResult> offsets = {
                n0, b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(0)};
            SmallVector<OpFoldResult> sizes = {
                size, b.getIndexAttr(type.getDimSize(1)),
                b.getIndexAttr(type.getDimSize(2)),
                b.getIndexAttr(type.getDimSize(3))};
            SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
            return tensor::ExtractSliceOp::create(b, nloc, v, offsets, sizes,
                                                  strides);
          };
          Value next = accumulateWeightGrad(b, nloc, op, s, slice(x), slice(dy),
                                            iterArgs[0]);
          scf::YieldOp::create(b, nloc, next);
        });
    acc = loop.getResult(0);
  }

  // [G, Cog, K] -> [Co, K] -> [Co, Cig, kH, kW].
  if (s.groups > 1)
    acc = tensor::CollapseShapeOp::create(
        rewriter, loc, acc, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  Value dw = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({s.co, s.cig, s.kh, s.kw}, elementType), acc,
      SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
  return SmallVector<Value>{dw};
}

/// db[co] = sum over n, i, j of dy[n, co, i, j]: one reduction generic (any
/// dim dynamic).
static FailureOr<SmallVector<Value>>
decomposeConv2dBackwardBias(RewriterBase &rewriter, Conv2dBackwardBiasOp op,
                            const DecompositionOptions &) {
  return SmallVector<Value>{
      buildSum(rewriter, op.getLoc(), op.getDy(), {0, 2, 3})};
}

using ConvDecompositions = DecompositionList<
    Decomposition<Conv2dBackwardInputOp, decomposeConv2dBackwardInput>,
    Decomposition<Conv2dBackwardWeightOp, decomposeConv2dBackwardWeight>,
    Decomposition<Conv2dBackwardBiasOp, decomposeConv2dBackwardBias>>;

void mlir::rlx::populateConvDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  ConvDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachConvDecompositionModels(MLIRContext *ctx) {
  ConvDecompositions::attachModels(ctx);
}
