//===- LowerAttention.cpp - Attention forward ops to linalg --------------===//
//
// rlx.attention, per batch b and head h (AttentionUtils.h builds P):
//
//   S   = q k^T                      linalg.contract over (b,h,i,j,d)
//   Z   = mask(softcap(scale * S))   elementwise generic, mask from indices
//   P   = softmax_j(Z)               max and sum reductions, one generic
//   out = P v                        linalg.contract into q's layout
//
//===----------------------------------------------------------------------===//
#include "Attention/AttentionUtils.h"
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// out[b,h,[g,]i,e] = sum_j P[b,h,[g,]i,j] * v[b,h,j,e] (e < Dv), written
/// in q's layout.
static FailureOr<SmallVector<Value>> lowerAttention(RewriterBase &rewriter,
                                                    AttentionOp op,
                                                    const LoweringOptions &) {
  AttentionSpec spec = getAttentionSpec(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value q = attentionView(rewriter, loc, spec, op.getQ(), AttentionRole::Query);
  Value k = attentionView(rewriter, loc, spec, op.getK(), AttentionRole::Key);
  Value v = attentionView(rewriter, loc, spec, op.getV(), AttentionRole::Value);
  AttentionProbs probs =
      buildAttentionProbs(rewriter, loc, spec, q, k, op.getMask());
  Value out =
      buildContraction(rewriter, loc, probs.probs, attentionScoreMap(ctx, spec),
                       v, attentionSeqMap(ctx, spec, kDimJ),
                       attentionOutputInit(rewriter, loc, spec, q),
                       attentionSeqMap(ctx, spec, kDimI));
  return SmallVector<Value>{attentionUnview(rewriter, loc, spec, out)};
}

void mlir::rlx::populateAttentionLoweringPatterns(
    RewritePatternSet &patterns, const LoweringOptions &options) {
  addLoweringPatterns<Lowering<AttentionOp, lowerAttention>>(patterns, options);
}
