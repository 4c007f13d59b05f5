//===- PoolGrad.cpp - reverse rule of max_pool2d --------------------------===//
//
//   dx = max_pool2d_backward(x, dy)   (dy to each window's argmax; same
//   geometry: kernel, stride, padding, dilation, ceil_mode)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradMaxPool2d(OpBuilder &b, MaxPool2dOp op,
                                   ArrayRef<Value> dys, ArrayRef<bool> needed,
                                   SmallVectorImpl<Value> &dxs) {
  dxs[0] = createWithForwardAttrs<MaxPool2dBackwardOp>(
      b, op, op.getX().getType(), {op.getX(), dys[0]});
  return success();
}

void mlir::rlx::attachPoolGradModels(MLIRContext *ctx) {
  GradList<Grad<MaxPool2dOp, gradMaxPool2d>>::attachModels(ctx);
}
