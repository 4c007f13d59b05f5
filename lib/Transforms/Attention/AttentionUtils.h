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
// space (b, h, i, j, d) (i: query row, j: key row, d: head dim), whose maps
// index the sequence operands in their own layout: `[B, H, S, D]` directly,
// `[B, S, H*D]` through a free tensor.expand_shape to `[B, S, H, D]`; no
// operand is transposed or copied.
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
  int64_t headDim = 1;
  MaskKind maskKind = MaskKind::none;
  int64_t window = 0;            // sliding_window only
  double scale = 1.0;            // the default 1/sqrt(head_dim) filled in
  std::optional<double> softcap; // c in c*tanh(x/c)
  bool seqMajor = false;         // rank-3 `[B, S, H*D]` layout

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

/// The 4-D view of a sequence operand: `[B, H, S, D]` as is, `[B, S, H*D]`
/// expanded (free reshape) to `[B, S, H, D]`.
Value attentionView(OpBuilder &b, Location loc, const AttentionSpec &spec,
                    Value x);

/// The inverse of attentionView: `[B, S, H, D]` collapsed to `[B, S, H*D]`.
Value attentionUnview(OpBuilder &b, Location loc, const AttentionSpec &spec,
                      Value view);

/// Iteration dimensions of every attention contraction.
enum AttentionDim : unsigned { kDimB = 0, kDimH, kDimI, kDimJ, kDimD };

/// The map (b, h, i, j, d) -> a view's indices, whose sequence index is the
/// dim `seq` (kDimI for q/dy/out, kDimJ for k/v).
AffineMap attentionSeqMap(MLIRContext *ctx, const AttentionSpec &spec,
                          AttentionDim seq);

/// The map (b, h, i, j, d) -> (b, h, i, j) of a score-shaped operand.
AffineMap attentionScoreMap(MLIRContext *ctx);

/// The probabilities of an attention op from the 4-D views of q and k and
/// the (optional) mask operand.
struct AttentionProbs {
  Value scores; // S = q k^T (unscaled), [B, H, Sq, Sk]
  Value probs;  // P = softmax_j(mask(softcap(scale * S)))
  Value offset; // off = Sk - Sq (index), for index-generated masks
};
AttentionProbs buildAttentionProbs(OpBuilder &b, Location loc,
                                   const AttentionSpec &spec, Value qView,
                                   Value kView, Value mask);

/// The map (b, h, i, j) -> the mask operand's indices (custom: `[B, Sk]` or
/// `[B, H, Sq, Sk]`; bias: `[Sq, Sk]` or rank 4 with static-1 dims
/// broadcast).
AffineMap attentionMaskMap(MLIRContext *ctx, const AttentionSpec &spec,
                           Value mask);

/// Inside a generic over (b, h, i, j): the i1 "score (i, j) is kept" of a
/// causal, sliding_window or custom mask (`maskValue` is the custom mask's
/// element; null otherwise).
Value buildAttentionKeep(OpBuilder &b, Location loc, const AttentionSpec &spec,
                         Value offset, Value maskValue);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_ATTENTION_ATTENTIONUTILS_H
