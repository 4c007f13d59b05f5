//===- ConvGrad.cpp - reverse rule of conv2d ------------------------------===//
//
//   dx = conv2d_backward_input(dy, w), dw = conv2d_backward_weight(x, dy)
//   (same geometry; the result types fix H, W and the kernel size)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradConv2d(OpBuilder &b, Conv2dOp op, ArrayRef<Value> dys,
                                ArrayRef<bool> needed,
                                SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  if (needed[0])
    dxs[0] = Conv2dBackwardInputOp::create(
        b, loc, op.getX().getType(), dys[0], op.getW(), op.getStrideAttr(),
        op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr());
  if (needed[1])
    dxs[1] = Conv2dBackwardWeightOp::create(
        b, loc, op.getW().getType(), op.getX(), dys[0], op.getStrideAttr(),
        op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr());
  return success();
}

void mlir::rlx::attachConvGradModels(MLIRContext *ctx) {
  GradList<Grad<Conv2dOp, gradConv2d>>::attachModels(ctx);
}
