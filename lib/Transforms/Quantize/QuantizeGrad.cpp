//===- QuantizeGrad.cpp - reverse rule of fake_quantize -------------------===//
//
//   dx = fake_quantize_backward(x, dy)   (the op's straight-through estimator)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxQuantizeOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradFakeQuantize(OpBuilder &b, FakeQuantizeOp op,
                                      ArrayRef<Value> dys,
                                      ArrayRef<bool> needed,
                                      SmallVectorImpl<Value> &dxs) {
  dxs[0] = FakeQuantizeBackwardOp::create(b, op.getLoc(), op.getX().getType(),
                                          op.getX(), dys[0], op.getBitsAttr(),
                                          op.getAxisAttr(), op.getSteAttr());
  return success();
}

void mlir::rlx::attachQuantizeGradModels(MLIRContext *ctx) {
  GradList<Grad<FakeQuantizeOp, gradFakeQuantize>>::attachModels(ctx);
}
