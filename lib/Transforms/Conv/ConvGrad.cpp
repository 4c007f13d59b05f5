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

// Second order. conv2d is bilinear in (x, w): with <dy, conv2d(x, w)>,
// conv2d_backward_input(dy, w) = d/dx and conv2d_backward_weight(x, dy) =
// d/dw, so for a cotangent v of either,
//   <v, backward_input(dy, w)>  = <dy, conv2d(v, w)>: d/ddy = conv2d(v, w),
//                                 d/dw = backward_weight(v, dy);
//   <v, backward_weight(x, dy)> = <dy, conv2d(x, v)>: d/ddy = conv2d(x, v),
//                                 d/dx = backward_input(dy, v).
// Direct rules: the adjoints are convolutions again (no im2col or strided
// window maps to differentiate), and differentiable once more.
static LogicalResult gradConv2dBackwardInput(OpBuilder &b,
                                             Conv2dBackwardInputOp op,
                                             ArrayRef<Value> dys,
                                             ArrayRef<bool> needed,
                                             SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  if (needed[0])
    dxs[0] = Conv2dOp::create(b, loc, op.getDy().getType(), dys[0], op.getW(),
                              op.getStrideAttr(), op.getPaddingAttr(),
                              op.getDilationAttr(), op.getGroupsAttr());
  if (needed[1])
    dxs[1] = Conv2dBackwardWeightOp::create(
        b, loc, op.getW().getType(), dys[0], op.getDy(), op.getStrideAttr(),
        op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr());
  return success();
}

static LogicalResult gradConv2dBackwardWeight(OpBuilder &b,
                                              Conv2dBackwardWeightOp op,
                                              ArrayRef<Value> dys,
                                              ArrayRef<bool> needed,
                                              SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  if (needed[0])
    dxs[0] = Conv2dBackwardInputOp::create(
        b, loc, op.getX().getType(), op.getDy(), dys[0], op.getStrideAttr(),
        op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr());
  if (needed[1])
    dxs[1] = Conv2dOp::create(b, loc, op.getDy().getType(), op.getX(), dys[0],
                              op.getStrideAttr(), op.getPaddingAttr(),
                              op.getDilationAttr(), op.getGroupsAttr());
  return success();
}

void mlir::rlx::attachConvGradModels(MLIRContext *ctx) {
  GradList<Grad<Conv2dOp, gradConv2d>,
           Grad<Conv2dBackwardInputOp, gradConv2dBackwardInput>,
           Grad<Conv2dBackwardWeightOp,
                gradConv2dBackwardWeight>>::attachModels(ctx);
}
