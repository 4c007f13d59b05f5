//===- CumsumGrad.cpp - reverse rule of cumsum ----------------------------===//
//
//   dx = cumsum_backward(dy)   (a reverse cumulative sum, same axis/exclusive)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxCumsumOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradCumsum(OpBuilder &b, CumsumOp op, ArrayRef<Value> dys,
                                ArrayRef<bool> needed,
                                SmallVectorImpl<Value> &dxs) {
  dxs[0] = CumsumBackwardOp::create(b, op.getLoc(), op.getX().getType(), dys[0],
                                    op.getAxisAttr(), op.getExclusiveAttr());
  return success();
}

void mlir::rlx::attachCumsumGradModels(MLIRContext *ctx) {
  GradList<Grad<CumsumOp, gradCumsum>>::attachModels(ctx);
}
