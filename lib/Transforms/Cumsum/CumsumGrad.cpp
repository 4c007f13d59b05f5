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

// Second order: cumsum_backward is the transpose of the linear map cumsum
// (the reversed sum), so its adjoint is cumsum itself with the same axis and
// exclusivity. A direct rule rather than the decomposition: it holds for
// dynamic lengths too, where the decomposition is an scf.for scan.
static LogicalResult gradCumsumBackward(OpBuilder &b, CumsumBackwardOp op,
                                        ArrayRef<Value> dys,
                                        ArrayRef<bool> needed,
                                        SmallVectorImpl<Value> &dxs) {
  dxs[0] = CumsumOp::create(b, op.getLoc(), op.getDy().getType(), dys[0],
                            op.getAxisAttr(), op.getExclusiveAttr());
  return success();
}

void mlir::rlx::attachCumsumGradModels(MLIRContext *ctx) {
  GradList<Grad<CumsumOp, gradCumsum>,
           Grad<CumsumBackwardOp, gradCumsumBackward>>::attachModels(ctx);
}
