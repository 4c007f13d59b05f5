//===- ConvUtils.h - IR shared by the conv rewrites ------------*- C++ -*-===//
//
// The forward conv2d lowering and conv2d_backward_input (a transposed
// convolution) both end in a grouped, unpadded linalg convolution; this is
// where it is built (as a named linalg convolution, or as a direct-convolution
// contraction generic), together with the precondition checks all three
// conv rewrites share.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_CONV_CONVUTILS_H
#define RLX_LIB_TRANSFORMS_CONV_CONVUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Whether dims [1, 4) of every rank-4 value are static: the precondition
/// of the specialised static conv rewrites (static tiles, stride phases,
/// im2col); otherwise the general forms below, which read every size with
/// tensor.dim, are used.
bool hasStaticConvDims(ArrayRef<Value> values);

/// `expr` over the sizes `operands` (its symbols): a constant when they are
/// all static, else arith ops on them.
OpFoldResult convSize(OpBuilder &b, Location loc, AffineExpr expr,
                      ArrayRef<OpFoldResult> operands);

/// Splits dim `dim` (G*C channels) of `x` into (G, C) with a free
/// expand_shape; C is read with tensor.dim when dynamic.
Value splitGroups(OpBuilder &b, Location loc, Value x, int64_t dim,
                  int64_t groups);

/// The general convolution: any dim of `input` [N, G*C, Hp, Wp] (already
/// padded) and `filter` [G*F, C, kH, kW] dynamic. One contraction generic
/// over (n, g, f, i, j, c, a, b) on the group-split views, with the output
/// size floor((Hp - d(k-1) - 1) / s) + 1 from tensor.dim; collapsed to
/// [N, G*F, Ho, Wo].
Value buildGeneralConv2d(OpBuilder &b, Location loc, Value input, Value filter,
                         int64_t groups, ArrayRef<int64_t> stride,
                         ArrayRef<int64_t> dilation);

/// Zero-pads dims 2 and 3 of `x` by `low` before and `high` after (both
/// >= 0); returns `x` itself when all are 0.
Value padSpatial(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                 ArrayRef<int64_t> high);

/// The unpadded grouped convolution
///   out[n, g*F + f, i, j] = sum_{c, a, b} filter[g*F + f, c, a, b]
///                            * input[n, g*C + c, i*s + a*d, j*s + b*d]
/// of `input` [N, G*C, H, W] (static but N) with `filter` [G*F, C, kH, kW]
/// (static) into a zero-filled [N, G*F, Ho, Wo]: linalg.conv_2d_nchw_fchw
/// when G == 1, else expand_shape to [N, G, C, H, W] / [G, F, C, kH, kW],
/// linalg.conv_2d_ngchw_gfchw and collapse_shape back.
Value buildGroupedConv2d(OpBuilder &b, Location loc, Value input, Value filter,
                         int64_t groups, ArrayRef<int64_t> stride,
                         ArrayRef<int64_t> dilation);

/// The same convolution as one contraction generic over
/// (n, g, f, i, j, c, a, b) into [N, G, F, Ho, Wo] (then collapsed to
/// [N, G*F, Ho, Wo]), which rlx-optimize-contractions turns into a
/// micro-kernel that vectorizes along j. With a stride s > 1 along W the
/// input is first split into its s column phases,
///   xw[n, ch, h, p, q] = input[n, ch, h, p + s*q],
/// and read as xw[.., (b*d) mod s, j + (b*d) floordiv s], so that the
/// output columns j still read unit-stride rows. With `channelsLast` (and
/// prefersChannelsLast(F)) the contraction is over (n, g, i, j, f, c, a, b)
/// into [N, G, Ho, Wo, F] instead, reading the filter as [G, C, kH, kW, F]
/// (so it vectorizes along f, and the input, broadcast, needs no phases),
/// and the result is transposed to [N, G*F, Ho, Wo].
Value buildDirectConv2d(OpBuilder &b, Location loc, Value input, Value filter,
                        int64_t groups, ArrayRef<int64_t> stride,
                        ArrayRef<int64_t> dilation, bool channelsLast);

/// Whether a direct convolution with `channels` output channels per group
/// is computed channels-last (vectorized along those channels) rather than
/// along its output columns: when the channels fill whole vectors of up to
/// 16 lanes. Rows of Wo columns waste lanes whenever Wo is not a multiple
/// of the vector width (56 columns are 4 vectors of 16, 12% idle; 7 are
/// 56% idle), and a strided convolution would need its input split into
/// column phases; channels-last costs one vectorized transpose of the
/// output instead.
bool prefersChannelsLast(int64_t channels);

/// `x` (static but dim 0) with its dims [outer, split) and [split, rank)
/// swapped: one linalg.transpose of the last two dims of its collapse to
/// [.., prod [outer, split), prod [split, rank)] (which
/// rlx-optimize-contractions vectorizes in register squares), expanded back.
/// Requires 1 <= outer < split < rank when dim 0 is dynamic, else
/// 0 <= outer.
Value swapTrailingDims(OpBuilder &b, Location loc, Value x, int64_t outer,
                       int64_t split);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_CONV_CONVUTILS_H
