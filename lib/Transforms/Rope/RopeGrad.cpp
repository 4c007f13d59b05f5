//===- RopeGrad.cpp - reverse rule of rope --------------------------------===//
//
//   dx = rope_backward(dy, cos, sin)   (rotation by -sin); the tables'
//   gradients sum the products of the rotated pairs (RopeUtils.h), for
//   learned or input-dependent position tables.
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"
#include "Rope/RopeUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxRopeOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// The cos/sin gradients of a rotation of `x` with cotangent `u`, when
/// needed (operands 1 and 2 of rope and rope_backward).
static void tableGrads(OpBuilder &b, Location loc, Value x, Value u, Value cos,
                       Value sin, int64_t headDim, int64_t nRot, bool inverse,
                       ArrayRef<bool> needed, SmallVectorImpl<Value> &dxs) {
  if (!needed[1] && !needed[2])
    return;
  auto [dc, ds] =
      buildRopeTableGrads(b, loc, x, u, cos, headDim, nRot, inverse);
  if (needed[1])
    dxs[1] = castToType(b, loc, dc, cos.getType());
  if (needed[2])
    dxs[2] = castToType(b, loc, ds, sin.getType());
}

static LogicalResult gradRope(OpBuilder &b, RopeOp op, ArrayRef<Value> dys,
                              ArrayRef<bool> needed,
                              SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  if (needed[0])
    dxs[0] = RopeBackwardOp::create(b, loc, op.getX().getType(), dys[0],
                                    op.getCos(), op.getSin(),
                                    op.getHeadDimAttr(), op.getNRotAttr());
  tableGrads(b, loc, op.getX(), castToType(b, loc, dys[0], op.getX().getType()),
             op.getCos(), op.getSin(), op.getHeadDim(), op.getNRot(),
             /*inverse=*/false, needed, dxs);
  return success();
}

// Second order: rope_backward is the transposed rotation, linear in dy, so
// its adjoint in dy is the rotation itself, rlx.rope; the tables as for
// rope, with sin negated. A direct rule keeps the gradient one rlx op (and
// its decomposition one generic) instead of the reverse of the slices and
// the generic of the decomposition.
static LogicalResult gradRopeBackward(OpBuilder &b, RopeBackwardOp op,
                                      ArrayRef<Value> dys,
                                      ArrayRef<bool> needed,
                                      SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  if (needed[0])
    dxs[0] = RopeOp::create(b, loc, op.getDy().getType(), dys[0], op.getCos(),
                            op.getSin(), op.getHeadDimAttr(), op.getNRotAttr());
  tableGrads(b, loc, op.getDy(),
             castToType(b, loc, dys[0], op.getDy().getType()), op.getCos(),
             op.getSin(), op.getHeadDim(), op.getNRot(), /*inverse=*/true,
             needed, dxs);
  return success();
}

void mlir::rlx::attachRopeGradModels(MLIRContext *ctx) {
  GradList<Grad<RopeOp, gradRope>,
           Grad<RopeBackwardOp, gradRopeBackward>>::attachModels(ctx);
}
