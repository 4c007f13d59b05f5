//===- RopeGrad.cpp - reverse rule of rope --------------------------------===//
//
//   dx = rope_backward(dy, cos, sin)   (rotation by -sin). The tables are
//   not differentiated: a gradient that needs them is an error.
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradRope(OpBuilder &b, RopeOp op, ArrayRef<Value> dys,
                              ArrayRef<bool> needed,
                              SmallVectorImpl<Value> &dxs) {
  if (needed[1] || needed[2])
    return op.emitError("'rlx.rope' is not differentiable with respect to "
                        "its cos/sin tables");
  dxs[0] = RopeBackwardOp::create(b, op.getLoc(), op.getX().getType(), dys[0],
                                  op.getCos(), op.getSin(), op.getHeadDimAttr(),
                                  op.getNRotAttr());
  return success();
}

// Second order: rope_backward is the transposed rotation, linear in dy, so
// its adjoint in dy is the rotation itself, rlx.rope. A direct rule: the
// decomposition reads the partner element with tensor.extract, which has no
// reverse rule.
static LogicalResult gradRopeBackward(OpBuilder &b, RopeBackwardOp op,
                                      ArrayRef<Value> dys,
                                      ArrayRef<bool> needed,
                                      SmallVectorImpl<Value> &dxs) {
  if (needed[1] || needed[2])
    return op.emitError("'rlx.rope_backward' is not differentiable with "
                        "respect to its cos/sin tables");
  dxs[0] =
      RopeOp::create(b, op.getLoc(), op.getDy().getType(), dys[0], op.getCos(),
                     op.getSin(), op.getHeadDimAttr(), op.getNRotAttr());
  return success();
}

void mlir::rlx::attachRopeGradModels(MLIRContext *ctx) {
  GradList<Grad<RopeOp, gradRope>,
           Grad<RopeBackwardOp, gradRopeBackward>>::attachModels(ctx);
}
