//===- GatherGrad.cpp - reverse rule of gather ----------------------------===//
//
//   dtable = gather_backward(dy, indices)   (scatter-add; the indices are
//   not differentiable)
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "Common/Builders.h"

#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradGather(OpBuilder &b, GatherOp op, ArrayRef<Value> dys,
                                ArrayRef<bool> needed,
                                SmallVectorImpl<Value> &dxs) {
  dxs[0] = createWithForwardAttrs<GatherBackwardOp>(
      b, op, op.getTable().getType(), {dys[0], op.getIndices()});
  return success();
}

// Second order: gather_backward(dy, indices) = sum over the positions n
// with indices[n] = t of f_t dy[n] into row t, where f_t = 1 (PyTorch's
// padding_idx: 0 for that row; scale_grad_by_freq: 1 / count_t). It is linear
// in dy, and its adjoint for a cotangent v is the gather of v f: a direct
// rule (the decomposition is an scf.for scatter). f comes from the op itself
// on ones without the scaling: count_t (0 for the padding row).
static LogicalResult gradGatherBackward(OpBuilder &b, GatherBackwardOp op,
                                        ArrayRef<Value> dys,
                                        ArrayRef<bool> needed,
                                        SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  Value v = dys[0];
  if (op.getPaddingIdx() || op.getScaleGradByFreq()) {
    Value ones = filledLike(b, loc, op.getDy(), 1.0);
    Value counts = GatherBackwardOp::create(b, loc, op.getType(), ones,
                                            op.getIndices(), op.getAxisAttr(),
                                            op.getPaddingIdxAttr(), UnitAttr());
    bool scale = op.getScaleGradByFreq();
    v = buildElementwise(
        b, loc, {castToType(b, loc, v, op.getType()), counts},
        [&](OpBuilder &nb, Location nl, ValueRange a) -> Value {
          Type t = a[0].getType();
          Value zero = floatConst(nb, nl, t, 0.0);
          Value present = arith::CmpFOp::create(
              nb, nl, arith::CmpFPredicate::OGT, a[1], zero);
          Value scaled =
              scale ? Value(arith::DivFOp::create(nb, nl, a[0], a[1])) : a[0];
          return arith::SelectOp::create(nb, nl, present, scaled, zero);
        });
  }
  dxs[0] = GatherOp::create(b, loc, op.getDy().getType(), v, op.getIndices(),
                            op.getAxisAttr());
  return success();
}

void mlir::rlx::attachGatherGradModels(MLIRContext *ctx) {
  GradList<Grad<GatherOp, gradGather>,
           Grad<GatherBackwardOp, gradGatherBackward>>::attachModels(ctx);
}
