//===- AttentionGrad.cpp - reverse rule of attention ----------------------===//
//
//   d{q,k,v} = attention_backward(q, k, v, dy [, mask]) {wrt = query|key|value}
//   (each recomputes the probabilities). The mask is not differentiated: a
//   gradient that needs it is an error.
//
//===----------------------------------------------------------------------===//
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradAttention(OpBuilder &b, AttentionOp op,
                                   ArrayRef<Value> dys, ArrayRef<bool> needed,
                                   SmallVectorImpl<Value> &dxs) {
  if (op.getMask() && needed[3])
    return op.emitError("'rlx.attention' is not differentiable with respect "
                        "to its mask");
  const AttentionWrt wrts[] = {AttentionWrt::query, AttentionWrt::key,
                               AttentionWrt::value};
  for (unsigned i = 0; i < 3; ++i) {
    if (!needed[i])
      continue;
    // Every attribute of the forward op carries over (the two ops share
    // their attribute set), plus `wrt`.
    SmallVector<NamedAttribute> attrs(op->getAttrs());
    attrs.push_back(
        b.getNamedAttr("wrt", AttentionWrtAttr::get(b.getContext(), wrts[i])));
    SmallVector<Value> operands = {op.getQ(), op.getK(), op.getV(), dys[0]};
    if (op.getMask())
      operands.push_back(op.getMask());
    dxs[i] = AttentionBackwardOp::create(b, op.getLoc(),
                                         TypeRange{op->getOperand(i).getType()},
                                         operands, attrs);
  }
  return success();
}

void mlir::rlx::attachAttentionGradModels(MLIRContext *ctx) {
  GradList<Grad<AttentionOp, gradAttention>>::attachModels(ctx);
}
