//===- SoftmaxGrad.cpp - reverse rules of softmax and cross-entropy -------===//
//
//   softmax (no backward op; a linalg rule on the forward result y):
//     dx = y * (dy - sum_axis(dy * y))
//   softmax_cross_entropy:
//     dlogits = softmax_cross_entropy_backward(logits, labels, dloss)
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradSoftmax(OpBuilder &b, SoftmaxOp op,
                                 ArrayRef<Value> dys, ArrayRef<bool> needed,
                                 SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  Value y = op.getY();
  Value dy = castToType(b, loc, dys[0], y.getType());
  int64_t rank = cast<RankedTensorType>(y.getType()).getRank();
  int64_t axis = op.getAxisAttr().getInt();
  if (axis < 0)
    axis += rank;
  AffineMap id = b.getMultiDimIdentityMap(rank);
  Value s = buildSums(b, loc, y, {axis}, {{dy, id}, {y, id}}, 1,
                      [](OpBuilder &nb, Location nl, ValueRange a) {
                        return SmallVector<Value>{
                            arith::MulFOp::create(nb, nl, a[0], a[1])};
                      })[0];
  dxs[0] = buildBroadcastElementwise(
      b, loc, {y, dy}, {s}, {axis},
      [](OpBuilder &nb, Location nl, ValueRange a) -> Value {
        Value diff = arith::SubFOp::create(nb, nl, a[1], a[2]);
        return arith::MulFOp::create(nb, nl, a[0], diff);
      });
  return success();
}

static LogicalResult gradSoftmaxCrossEntropy(OpBuilder &b,
                                             SoftmaxCrossEntropyOp op,
                                             ArrayRef<Value> dys,
                                             ArrayRef<bool> needed,
                                             SmallVectorImpl<Value> &dxs) {
  dxs[0] = SoftmaxCrossEntropyBackwardOp::create(
      b, op.getLoc(), op.getLogits().getType(), op.getLogits(), op.getLabels(),
      dys[0]);
  return success();
}

void mlir::rlx::attachSoftmaxGradModels(MLIRContext *ctx) {
  GradList<
      Grad<SoftmaxOp, gradSoftmax>,
      Grad<SoftmaxCrossEntropyOp, gradSoftmaxCrossEntropy>>::attachModels(ctx);
}
