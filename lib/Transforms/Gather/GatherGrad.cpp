//===- GatherGrad.cpp - reverse rule of gather ----------------------------===//
//
//   dtable = gather_backward(dy, indices)   (scatter-add; the indices are
//   not differentiable)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradGather(OpBuilder &b, GatherOp op, ArrayRef<Value> dys,
                                ArrayRef<bool> needed,
                                SmallVectorImpl<Value> &dxs) {
  dxs[0] = createWithForwardAttrs<GatherBackwardOp>(
      b, op, op.getTable().getType(), {dys[0], op.getIndices()});
  return success();
}

void mlir::rlx::attachGatherGradModels(MLIRContext *ctx) {
  GradList<Grad<GatherOp, gradGather>>::attachModels(ctx);
}
