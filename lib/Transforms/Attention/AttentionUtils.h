//===- AttentionUtils.h - shared code of the attention rewrites -*- C++ -*-===//
//
// rlx.attention (LowerAttention.cpp) and rlx.attention_backward
// (DecomposeAttentionBackward.cpp) build the same probabilities
//
//   S = q k^T                       raw scores, [B, H, Sq, Sk]
//   Z = mask(softcap(scale * S))    index-generated or operand mask
//   P = softmax_j(Z)                max-subtracted (Softmax/SoftmaxUtils.h)
//
// with this code. Every contraction is a linalg.contract over the iteration
// space (b, h, i, j, d) (i: query row, j: key row, d: the head dim of the
// product: D for q k^T, Dv for P v), whose maps index the sequence operands
// in their own layout: `[B, H, S, D]` directly, `[B, S, H*D]` through a free
// tensor.expand_shape to `[B, S, H, D]`; no operand is transposed or copied.
//
// Grouped-query attention (num_kv_heads < num_heads) splits the query head
// into (key/value head h, member g of its group): the space is
// (b, h, g, i, j, d), the query-side operands (q, dy, the output, the
// scores) are viewed with the head dim expanded to (Hkv, G) (a free reshape,
// the heads of a group being adjacent), and k and v are indexed without g.
// dk and dv are then contractions that also reduce over g: the sum over
// each group needs no extra op, and nothing repeats k or v. Without groups
// the space and the IR are exactly the ungrouped ones.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_ATTENTION_ATTENTIONUTILS_H
#define RLX_LIB_TRANSFORMS_ATTENTION_ATTENTIONUTILS_H

#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::rlx {

/// The attributes of an attention op, normalised for IR building.
struct AttentionSpec {
  int64_t numHeads = 1;
  int64_t numKvHeads = 1;
  int64_t headDim = 1;  // of q and k
  int64_t valueDim = 1; // of v and the output
  MaskKind maskKind = MaskKind::none;
  int64_t window = 0;            // sliding_window only
  double scale = 1.0;            // the default 1/sqrt(head_dim) filled in
  std::optional<double> softcap; // c in c*tanh(x/c)
  bool seqMajor = false;         // rank-3 `[B, S, H*D]` layout

  /// Query heads per key/value head (the verifier checks it divides).
  int64_t groupSize() const { return numHeads / numKvHeads; }
  /// Whether the iteration space has the group dim g (see the file comment).
  bool grouped() const { return numKvHeads != numHeads; }
  /// The rank of the score-shaped tensors: [B, H, Sq, Sk] or
  /// [B, Hkv, G, Sq, Sk].
  int64_t scoreRank() const { return grouped() ? 5 : 4; }

  /// Whether a removed score is replaced by the constant -1e9 (so its
  /// derivative is 0): causal, sliding_window and custom.
  bool hasReplacingMask() const {
    return maskKind == MaskKind::causal ||
           maskKind == MaskKind::sliding_window || maskKind == MaskKind::custom;
  }
};

/// The attributes of `op`, with the default scale filled in.
AttentionSpec getAttentionSpec(AttentionOp op);
AttentionSpec getAttentionSpec(AttentionBackwardOp op);

/// Which sequence operand a view is of: it fixes the heads (H or Hkv) and
/// the head dim (D or Dv).
enum class AttentionRole { Query, Key, Value, Output };

/// The view of a sequence operand (`dy` is an Output): `[B, H, S, D]` as is,
/// `[B, S, H*D]` expanded (free reshape) to `[B, S, H, D]`; with groups, the
/// query-side heads are further expanded to (Hkv, G): `[B, Hkv, G, S, D]`
/// or `[B, S, Hkv, G, D]`.
Value attentionView(OpBuilder &b, Location loc, const AttentionSpec &spec,
                    Value x, AttentionRole role);

/// The inverse of attentionView.
Value attentionUnview(OpBuilder &b, Location loc, const AttentionSpec &spec,
                      Value view);

/// A zero-filled output view (q's view with the head dim Dv).
Value attentionOutputInit(OpBuilder &b, Location loc, const AttentionSpec &spec,
                          Value qView);

/// Iteration dimensions of every attention contraction, by meaning; their
/// positions depend on whether the space has the group dim.
enum AttentionDim : unsigned { kDimB = 0, kDimH, kDimI, kDimJ, kDimD };

/// The map (b, h, [g,] i, j, d) -> a view's indices, whose sequence index is
/// the dim `seq` (kDimI for the query side q/dy/out, which has g; kDimJ for
/// k/v, which have not).
AffineMap attentionSeqMap(MLIRContext *ctx, const AttentionSpec &spec,
                          AttentionDim seq);

/// The map (b, h, [g,] i, j, d) -> (b, h, [g,] i, j) of a score-shaped
/// operand.
AffineMap attentionScoreMap(MLIRContext *ctx, const AttentionSpec &spec);

/// The probabilities of an attention op from the views of q and k and the
/// (optional) mask operand. `offset` (index), if given, replaces Sk - Sq as
/// the diagonal of the index-generated masks: a block of query rows starting
/// at row i0 of a longer sequence passes Sk - Sq + i0. Without `normalize`,
/// `probs` is exp(Z - max_j Z), P times the row sums `sums` (P itself is a
/// divide per score and a pass over the largest tile).
struct AttentionProbs {
  Value scores; // S = q k^T (unscaled), [B, H, Sq, Sk] or [B, Hkv, G, Sq, Sk]
  Value probs;  // P = softmax_j(mask(softcap(scale * S)))
  Value offset; // off = Sk - Sq (index), for index-generated masks
  Value sums;   // without normalize: [B, H, Sq] (or [B, Hkv, G, Sq])
};
AttentionProbs buildAttentionProbs(OpBuilder &b, Location loc,
                                   const AttentionSpec &spec, Value qView,
                                   Value kView, Value mask, Value offset = {},
                                   bool normalize = true);

/// The map (b, h, [g,] i, j) -> the mask operand's indices (custom:
/// `[B, Sk]` or `[B, H, Sq, Sk]`; bias: `[Sq, Sk]` or rank 4 with static-1
/// dims broadcast); the mask's query head is h * G + g.
AffineMap attentionMaskMap(MLIRContext *ctx, const AttentionSpec &spec,
                           Value mask);

/// Inside a generic over the score dims: the i1 "score (i, j) is kept" of a
/// causal, sliding_window or custom mask (`maskValue` is the custom mask's
/// element; null otherwise).
Value buildAttentionKeep(OpBuilder &b, Location loc, const AttentionSpec &spec,
                         Value offset, Value maskValue);

/// One block of attention-blocks (and forward-attention-blocks): views of
/// one (batch, key/value head), batch and head dims of size 1.
struct AttentionBlock {
  AttentionSpec spec; // one key/value head and its G query heads
  Value q, dy;        // the block's query rows (dy: null in the forward)
  Value k, v;         // the keys and values the block sees (see below)
  Value mask;         // the block's rows of a [Sq, Sk] bias, else null
  Value offset;       // the diagonal of index masks: Sk - Sq + i0
};

/// The body of a block: with a query-side result, returns the block's rows
/// of it (`acc` is null); with a key-side result (dk, dv), returns `acc` (the
/// result's rows of the keys the block sees) plus the block's part.
using AttentionBlockBody = function_ref<Value(
    OpBuilder &, Location, const AttentionBlock &, Value acc)>;

/// FlashAttention-2's loop structure: an scf.forall over (batch, key/value
/// head), each iteration an scf.for over blocks of query rows (of every head
/// of the group) in order, then a last partial block, so only [rows, Sk]
/// score tiles exist and sums over blocks have a fixed order. `result` is the
/// destination view (q's or an output view for a query-side `role`, else
/// k's or v's); a key-side result starts at 0. With a causal mask a block
/// sees only the keys up to its last row's diagonal (rounded up to 32), or
/// all of them when a row of it sees none. The rows per block come from Sk
/// (the score tiles stay in cache) unless `blockRowsOption` > 0.
Value buildAttentionBlocks(OpBuilder &b, Location loc,
                           const AttentionSpec &spec, Value q, Value k, Value v,
                           Value dy, Value mask, Value result,
                           AttentionRole role, int64_t blockRowsOption,
                           AttentionBlockBody body);

/// Whether attention-blocks applies to a mask operand: none, or one shared
/// by every head ([Sq, Sk] bias); not a custom or rank-4 bias mask.
bool attentionBlocksApply(const AttentionSpec &spec, Value mask);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_ATTENTION_ATTENTIONUTILS_H
