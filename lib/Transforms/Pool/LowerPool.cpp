//===- LowerPool.cpp - Pool forward ops to linalg --------------===//
//
// max_pool2d is tensor.pad with -inf (padded positions never win; in ceil
// mode the high side is padded as far as the last window reaches) and
// linalg.pooling_nchw_max with the strides and dilations, whose body is
// arith.maximumf: a NaN in a window makes its maximum NaN, as in PyTorch.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// y[n,c,i,j] = max over (a, b) < (kH, kW) of
///   xpad[n, c, i*sH + a*dH, j*sW + b*dW], xpad = x padded with -inf by
/// (pH, pW) before and, after, by as much as the last window needs (more
/// than the padding in ceil mode).
static FailureOr<SmallVector<Value>> lowerMaxPool2d(RewriterBase &rewriter,
                                                    MaxPool2dOp op,
                                                    const LoweringOptions &) {
  ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride(),
                    padding = op.getPadding(), dilation = op.getDilation();
  bool ceilMode = op.getCeilMode();

  Location loc = op.getLoc();
  Value x = op.getX();
  auto xType = cast<RankedTensorType>(x.getType());
  Type elemType = xType.getElementType();
  double lowest = -std::numeric_limits<double>::infinity();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };

  // [N, C, Ho, Wo] with PyTorch's output-size rule (static where H is; the
  // verifier checked that a window fits).
  SmallVector<int64_t> shape(xType.getShape().take_front(2));
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < 2; ++d)
    if (xType.isDynamicDim(d))
      dynamicSizes.push_back(linalg::createOrFoldDimOp(rewriter, loc, x, d));
  // Per spatial dim: the output size and the high padding, as attributes
  // where H is static, else as index values.
  SmallVector<OpFoldResult> outSizes, highPads;
  for (int64_t d = 0; d < 2; ++d) {
    int64_t in = xType.getDimSize(2 + d);
    int64_t window = dilation[d] * (kernel[d] - 1) + 1;
    if (!ShapedType::isDynamic(in)) {
      int64_t out = *slidingOutputSize(in, kernel[d], stride[d], padding[d],
                                       dilation[d], ceilMode);
      shape.push_back(out);
      // The last window ends at (out - 1) * s + e in padded coordinates.
      int64_t high = std::max(padding[d],
                              (out - 1) * stride[d] + window - in - padding[d]);
      outSizes.push_back(rewriter.getIndexAttr(out));
      highPads.push_back(rewriter.getIndexAttr(high));
      continue;
    }
    shape.push_back(ShapedType::kDynamic);
    // out = floor((H + 2p - e + (ceil ? s - 1 : 0)) / s) + 1, minus one in
    // ceil mode when (out - 1) * s >= H + p; clamped at 0 so that a run-time
    // H too small for one window gives an empty result, not a negative size.
    Value h = linalg::createOrFoldDimOp(rewriter, loc, x, 2 + d);
    Value num = arith::AddIOp::create(
        rewriter, loc, h,
        cst(2 * padding[d] - window + (ceilMode ? stride[d] - 1 : 0)));
    Value out = arith::AddIOp::create(
        rewriter, loc,
        arith::FloorDivSIOp::create(rewriter, loc, num, cst(stride[d])),
        cst(1));
    if (ceilMode) {
      Value lastStart = arith::MulIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, out, cst(1)),
          cst(stride[d]));
      Value pastEnd = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, lastStart,
          arith::AddIOp::create(rewriter, loc, h, cst(padding[d])));
      out = arith::SelectOp::create(
          rewriter, loc, pastEnd,
          arith::SubIOp::create(rewriter, loc, out, cst(1)), out);
    }
    out = arith::MaxSIOp::create(rewriter, loc, out, cst(0));
    dynamicSizes.push_back(out);
    outSizes.push_back(out);
    if (!ceilMode) {
      highPads.push_back(rewriter.getIndexAttr(padding[d]));
      continue;
    }
    // high = max(p, (out - 1) * s + e - H - p), at least 0 when out = 0.
    Value end = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc,
                              arith::SubIOp::create(rewriter, loc, out, cst(1)),
                              cst(stride[d])),
        cst(window - padding[d]));
    highPads.push_back(
        arith::MaxSIOp::create(rewriter, loc, cst(padding[d]),
                               arith::SubIOp::create(rewriter, loc, end, h))
            .getResult());
  }

  // Pad H and W with -inf.
  Value padded = x;
  bool anyPad = padding[0] != 0 || padding[1] != 0 ||
                llvm::any_of(highPads, [](OpFoldResult f) {
                  return getConstantIntValue(f) != std::optional<int64_t>(0);
                });
  if (anyPad) {
    SmallVector<int64_t> paddedShape(xType.getShape());
    SmallVector<OpFoldResult> low(4, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> high(4, rewriter.getIndexAttr(0));
    for (int64_t d = 0; d < 2; ++d) {
      low[2 + d] = rewriter.getIndexAttr(padding[d]);
      high[2 + d] = highPads[d];
      std::optional<int64_t> h = getConstantIntValue(highPads[d]);
      if (!ShapedType::isDynamic(paddedShape[2 + d]) && h)
        paddedShape[2 + d] += padding[d] + *h;
      else
        paddedShape[2 + d] = ShapedType::kDynamic;
    }
    padded = tensor::PadOp::create(
        rewriter, loc, RankedTensorType::get(paddedShape, elemType), x, low,
        high, floatConst(rewriter, loc, elemType, lowest));
  }

  auto resultType = RankedTensorType::get(shape, elemType);
  Value init = filled(
      rewriter, loc,
      tensor::EmptyOp::create(rewriter, loc, resultType, dynamicSizes), lowest);
  Value window = tensor::EmptyOp::create(rewriter, loc, kernel, elemType);
  auto pool = linalg::PoolingNchwMaxOp::create(
      rewriter, loc, TypeRange{resultType}, ValueRange{padded, window},
      ValueRange{init}, rewriter.getI64TensorAttr(stride),
      rewriter.getI64TensorAttr(dilation));
  return SmallVector<Value>{pool->getResult(0)};
}

void mlir::rlx::populatePoolLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<Lowering<MaxPool2dOp, lowerMaxPool2d>>(patterns, options);
}
