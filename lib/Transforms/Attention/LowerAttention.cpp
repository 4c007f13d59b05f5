//===- LowerAttention.cpp - Attention forward ops to linalg --------------===//
//
// rlx.attention, per batch b and head h (AttentionUtils.h builds P):
//
//   S   = q k^T                      linalg.contract over (b,h,i,j,d)
//   Z   = mask(softcap(scale * S))   elementwise generic, mask from indices
//   P   = softmax_j(Z)               max and sum reductions, one generic
//   out = P v                        linalg.contract into q's layout
//
// With forward-attention-blocks (the default; not with a custom or rank-4
// bias mask) this runs per (batch, key/value head) in an scf.forall and per
// block of query rows (AttentionUtils.h, buildAttentionBlocks), so only
// [rows, Sk] score tiles exist, and a causal block skips the keys that none
// of its rows sees.
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
static Value buildAttentionOutput(OpBuilder &b, Location loc,
                                  const AttentionSpec &spec, Value q, Value k,
                                  Value v, Value mask, Value offset = {}) {
  MLIRContext *ctx = b.getContext();
  AttentionProbs probs = buildAttentionProbs(b, loc, spec, q, k, mask, offset);
  return buildContraction(b, loc, probs.probs, attentionScoreMap(ctx, spec), v,
                          attentionSeqMap(ctx, spec, kDimJ),
                          attentionOutputInit(b, loc, spec, q),
                          attentionSeqMap(ctx, spec, kDimI));
}

static FailureOr<SmallVector<Value>>
lowerAttention(RewriterBase &rewriter, AttentionOp op,
               const LoweringOptions &options) {
  AttentionSpec spec = getAttentionSpec(op);
  Location loc = op.getLoc();
  Value q = attentionView(rewriter, loc, spec, op.getQ(), AttentionRole::Query);
  Value k = attentionView(rewriter, loc, spec, op.getK(), AttentionRole::Key);
  Value v = attentionView(rewriter, loc, spec, op.getV(), AttentionRole::Value);
  Value mask = op.getMask();
  Value out;
  if (options.forwardAttentionBlocks && attentionBlocksApply(spec, mask))
    out = buildAttentionBlocks(
        rewriter, loc, spec, q, k, v, /*dy=*/Value(), mask,
        attentionOutputInit(rewriter, loc, spec, q), AttentionRole::Output,
        /*blockRowsOption=*/0,
        [&](OpBuilder &b, Location l, const AttentionBlock &blk, Value) {
          return buildAttentionOutput(b, l, blk.spec, blk.q, blk.k, blk.v,
                                      blk.mask, blk.offset);
        });
  else
    out = buildAttentionOutput(rewriter, loc, spec, q, k, v, mask);
  return SmallVector<Value>{attentionUnview(rewriter, loc, spec, out)};
}

void mlir::rlx::populateAttentionLoweringPatterns(
    RewritePatternSet &patterns, const LoweringOptions &options) {
  addLoweringPatterns<Lowering<AttentionOp, lowerAttention>>(patterns, options);
}
