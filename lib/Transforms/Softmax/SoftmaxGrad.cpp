//===- SoftmaxGrad.cpp - reverse rules of the softmax family --------------===//
//
//   softmax:               dx = softmax_backward(x, dy)
//   log_softmax:           dx = log_softmax_backward(x, dy)
//   softmax_cross_entropy: dlogits = softmax_cross_entropy_backward(logits,
//                                        labels, dloss)
//
// (each recomputes the softmax from x; labels are not differentiated)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradSoftmax(OpBuilder &b, SoftmaxOp op,
                                 ArrayRef<Value> dys, ArrayRef<bool> needed,
                                 SmallVectorImpl<Value> &dxs) {
  dxs[0] = SoftmaxBackwardOp::create(b, op.getLoc(), op.getX().getType(),
                                     op.getX(), dys[0], op.getAxisAttr());
  return success();
}

static LogicalResult gradLogSoftmax(OpBuilder &b, LogSoftmaxOp op,
                                    ArrayRef<Value> dys, ArrayRef<bool> needed,
                                    SmallVectorImpl<Value> &dxs) {
  dxs[0] = LogSoftmaxBackwardOp::create(b, op.getLoc(), op.getX().getType(),
                                        op.getX(), dys[0], op.getAxisAttr());
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
      Grad<SoftmaxOp, gradSoftmax>, Grad<LogSoftmaxOp, gradLogSoftmax>,
      Grad<SoftmaxCrossEntropyOp, gradSoftmaxCrossEntropy>>::attachModels(ctx);
}
