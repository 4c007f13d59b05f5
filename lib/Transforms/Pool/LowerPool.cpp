//===- LowerPool.cpp - Pool forward ops to linalg --------------===//
//
// max_pool2d is tensor.pad with -inf (padded positions never win) and
// linalg.pooling_nchw_max, whose body is arith.maximumf: a NaN in a window
// makes its maximum NaN, as in PyTorch.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// y[n,c,i,j] = max over (a, b) < (kH, kW) of
///   xpad[n, c, i*sH + a, j*sW + b], xpad = x padded by (pH, pW) with -inf.
static FailureOr<SmallVector<Value>> lowerMaxPool2d(RewriterBase &rewriter,
                                                    MaxPool2dOp op,
                                                    const LoweringOptions &) {
  ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride(),
                    padding = op.getPadding();

  Location loc = op.getLoc();
  Value x = op.getX();
  auto xType = cast<RankedTensorType>(x.getType());
  Type elemType = xType.getElementType();
  double lowest = -std::numeric_limits<double>::infinity();

  // Pad H and W with -inf.
  Value padded = x;
  if (padding[0] != 0 || padding[1] != 0) {
    SmallVector<int64_t> paddedShape(xType.getShape());
    SmallVector<OpFoldResult> pads(4, rewriter.getIndexAttr(0));
    for (int64_t d = 0; d < 2; ++d) {
      pads[2 + d] = rewriter.getIndexAttr(padding[d]);
      if (!ShapedType::isDynamic(paddedShape[2 + d]))
        paddedShape[2 + d] += 2 * padding[d];
    }
    padded = tensor::PadOp::create(
        rewriter, loc, RankedTensorType::get(paddedShape, elemType), x, pads,
        pads, floatConst(rewriter, loc, elemType, lowest));
  }

  // [N, C, Ho, Wo], Ho = (H + 2 pH - kH) / sH + 1 (static where H is).
  SmallVector<int64_t> shape(xType.getShape().take_front(2));
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < 2; ++d)
    if (xType.isDynamicDim(d))
      dynamicSizes.push_back(linalg::createOrFoldDimOp(rewriter, loc, x, d));
  for (int64_t d = 0; d < 2; ++d) // the verifier checked that a window fits
    shape.push_back(*slidingOutputSize(xType.getDimSize(2 + d), kernel[d],
                                       stride[d], padding[d], 1));
  for (int64_t d = 0; d < 2; ++d) {
    if (!ShapedType::isDynamic(shape[2 + d]))
      continue;
    Value in = linalg::createOrFoldDimOp(rewriter, loc, x, 2 + d);
    Value span = arith::SubIOp::create(
        rewriter, loc,
        arith::AddIOp::create(
            rewriter, loc, in,
            arith::ConstantIndexOp::create(rewriter, loc, 2 * padding[d])),
        arith::ConstantIndexOp::create(rewriter, loc, kernel[d]));
    // Ho = max(span + s, 0) / s: span / s + 1 when a window fits (span >= 0),
    // else 0, so a runtime H too small for one window gives an empty result
    // rather than a negative size.
    Value shifted = arith::MaxSIOp::create(
        rewriter, loc,
        arith::AddIOp::create(
            rewriter, loc, span,
            arith::ConstantIndexOp::create(rewriter, loc, stride[d])),
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value size = arith::DivSIOp::create(
        rewriter, loc, shifted,
        arith::ConstantIndexOp::create(rewriter, loc, stride[d]));
    dynamicSizes.push_back(size);
  }
  auto resultType = RankedTensorType::get(shape, elemType);
  Value init = filled(
      rewriter, loc,
      tensor::EmptyOp::create(rewriter, loc, resultType, dynamicSizes), lowest);
  Value window = tensor::EmptyOp::create(rewriter, loc, kernel, elemType);
  auto pool = linalg::PoolingNchwMaxOp::create(
      rewriter, loc, TypeRange{resultType}, ValueRange{padded, window},
      ValueRange{init}, rewriter.getI64TensorAttr(stride),
      rewriter.getI64TensorAttr({1, 1}));
  return SmallVector<Value>{pool->getResult(0)};
}

void mlir::rlx::populatePoolLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<Lowering<MaxPool2dOp, lowerMaxPool2d>>(patterns, options);
}
