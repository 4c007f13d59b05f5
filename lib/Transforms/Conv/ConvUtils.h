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

/// Fails with "requires static <what>" unless dims [1, 4) of the rank-4
/// `value` (and dim 0 too if `includeBatch`) are static: the rewrites accept
/// a dynamic batch only.
LogicalResult requireStaticConvDims(RewriterBase &rewriter, Operation *op,
                                    Value value, StringRef name,
                                    bool includeBatch);

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
/// output columns j still read unit-stride rows.
Value buildDirectConv2d(OpBuilder &b, Location loc, Value input, Value filter,
                        int64_t groups, ArrayRef<int64_t> stride,
                        ArrayRef<int64_t> dilation);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_CONV_CONVUTILS_H
