//===- NormGrad.cpp - reverse rules of the normalisations -----------------===//
//
// Each needed operand gets its *_backward_{input,gamma,beta} op, which
// recomputes the statistics from x (docs/Design.md):
//
//   layer_norm: dx = *_input(x, gamma, dy), dgamma = *_gamma(x, dy),
//               dbeta = *_beta(dy)
//   rms_norm:   d{x,gamma,beta} = *_{input,gamma,beta}(x, gamma, beta, dy)
//   group_norm: dx = *_input(x, gamma, beta, dy), dgamma = *_gamma(x, dy),
//               dbeta = *_beta(x, dy)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradLayerNorm(OpBuilder &b, LayerNormOp op,
                                   ArrayRef<Value> dys, ArrayRef<bool> needed,
                                   SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  Value x = op.getX(), gamma = op.getGamma(), dy = dys[0];
  if (needed[0])
    dxs[0] = LayerNormBackwardInputOp::create(
        b, loc, x.getType(), x, gamma, dy, op.getAxisAttr(), op.getEpsAttr());
  if (needed[1])
    dxs[1] = LayerNormBackwardGammaOp::create(
        b, loc, gamma.getType(), x, dy, op.getAxisAttr(), op.getEpsAttr());
  if (needed[2])
    dxs[2] = LayerNormBackwardBetaOp::create(b, loc, op.getBeta().getType(), dy,
                                             op.getAxisAttr());
  return success();
}

static LogicalResult gradRmsNorm(OpBuilder &b, RmsNormOp op,
                                 ArrayRef<Value> dys, ArrayRef<bool> needed,
                                 SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  Value x = op.getX(), gamma = op.getGamma(), beta = op.getBeta();
  if (needed[0])
    dxs[0] = RmsNormBackwardInputOp::create(b, loc, x.getType(), x, gamma, beta,
                                            dys[0], op.getAxisAttr(),
                                            op.getEpsAttr());
  if (needed[1])
    dxs[1] = RmsNormBackwardGammaOp::create(b, loc, gamma.getType(), x, gamma,
                                            beta, dys[0], op.getAxisAttr(),
                                            op.getEpsAttr());
  if (needed[2])
    dxs[2] = RmsNormBackwardBetaOp::create(b, loc, beta.getType(), x, gamma,
                                           beta, dys[0], op.getAxisAttr(),
                                           op.getEpsAttr());
  return success();
}

static LogicalResult gradGroupNorm(OpBuilder &b, GroupNormOp op,
                                   ArrayRef<Value> dys, ArrayRef<bool> needed,
                                   SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  Value x = op.getX(), gamma = op.getGamma(), beta = op.getBeta();
  if (needed[0])
    dxs[0] = GroupNormBackwardInputOp::create(
        b, loc, x.getType(), x, gamma, beta, dys[0], op.getNumGroupsAttr(),
        op.getEpsAttr());
  if (needed[1])
    dxs[1] = GroupNormBackwardGammaOp::create(b, loc, gamma.getType(), x,
                                              dys[0], op.getNumGroupsAttr(),
                                              op.getEpsAttr());
  if (needed[2])
    dxs[2] =
        GroupNormBackwardBetaOp::create(b, loc, beta.getType(), x, dys[0],
                                        op.getNumGroupsAttr(), op.getEpsAttr());
  return success();
}

void mlir::rlx::attachNormGradModels(MLIRContext *ctx) {
  GradList<Grad<LayerNormOp, gradLayerNorm>, Grad<RmsNormOp, gradRmsNorm>,
           Grad<GroupNormOp, gradGroupNorm>>::attachModels(ctx);
}
