//===- ActivationGrad.cpp - reverse rules of the activations --------------===//
//
//   relu:       dx = relu_backward(x, dy)
//   activation: dx = activation_backward(x, dy) {kind and its parameters}
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxActivationOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradRelu(OpBuilder &b, ReluOp op, ArrayRef<Value> dys,
                              ArrayRef<bool> needed,
                              SmallVectorImpl<Value> &dxs) {
  dxs[0] = ReluBackwardOp::create(b, op.getLoc(), op.getX().getType(),
                                  op.getX(), dys[0]);
  return success();
}

static LogicalResult gradActivation(OpBuilder &b, ActivationOp op,
                                    ArrayRef<Value> dys, ArrayRef<bool> needed,
                                    SmallVectorImpl<Value> &dxs) {
  dxs[0] = createWithForwardAttrs<ActivationBackwardOp>(
      b, op, op.getX().getType(), {op.getX(), dys[0]});
  return success();
}

void mlir::rlx::attachActivationGradModels(MLIRContext *ctx) {
  GradList<Grad<ReluOp, gradRelu>,
           Grad<ActivationOp, gradActivation>>::attachModels(ctx);
}
