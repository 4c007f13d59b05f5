//===- NormUtils.h - statistics shared by the norm rewrites -----*- C++ -*-===//
//
// The norm lowerings (LowerNorm.cpp) and gradients (DecomposeNormBackward.cpp)
// share how statistics are recomputed and how group norm is viewed:
//
// - A normalisation runs over an iteration *domain* (a tensor's shape) in
//   which some dims are *reduced*: the last dim for layer/rms norm, and
//   (C/G, H, W) of the [N, G, C/G, H, W] view for group norm. Statistics are
//   tensors over the kept dims.
// - Each statistic pass is one linalg.generic whatever the tensor sizes; sums
//   that read the same inputs are fused into one multi-output reduction.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_NORMUTILS_H
#define RLX_LIB_TRANSFORMS_NORMUTILS_H

#include "Common/BuildUtils.h"

namespace mlir::rlx {

/// Statistics of a normalisation, shaped like the domain without its reduced
/// dims.
struct NormStats {
  /// The mean (null for rms norm).
  Value mean;
  /// r = 1/sqrt(var + eps) (layer/group) or rsqrt(mean(x^2) + eps) (rms).
  Value rstd;
  /// 1/n, n the number of elements a statistic runs over (a float scalar).
  Value invCount;
};

/// 1/n for n the product of `dims` of `tensor`, as a scalar of `type`: a
/// constant when those dims are static, tensor.dim arithmetic otherwise.
Value buildInverseCount(OpBuilder &b, Location loc, Value tensor,
                        ArrayRef<int64_t> dims, Type type);

/// The sizes of `domain` without the dims in `reduced`.
SmallVector<OpFoldResult> keptSizes(OpBuilder &b, Location loc, Value domain,
                                    ArrayRef<int64_t> reduced);

/// One linalg.generic over `domain`'s shape that sums, per kept index,
/// `numSums` terms computed by `terms` from the block arguments of `inputs`
/// (read through `maps`). Returns the sums: zero-initialised tensors shaped
/// like `domain` without `reduced`.
SmallVector<Value> buildSums(OpBuilder &b, Location loc, Value domain,
                             ArrayRef<int64_t> reduced, ValueRange inputs,
                             ArrayRef<AffineMap> maps, unsigned numSums,
                             GenericBody terms);

/// An all-parallel linalg.generic over `sizes` reading `inputs` through `maps`
/// and producing `numResults` tensors of `sizes` and `elementType`.
SmallVector<Value> buildParallel(OpBuilder &b, Location loc,
                                 ArrayRef<OpFoldResult> sizes,
                                 Type elementType, ValueRange inputs,
                                 ArrayRef<AffineMap> maps, unsigned numResults,
                                 GenericBody body);

/// sum of `tensor` over its `reduced` dims (one zero-filled reduction).
Value buildSum(OpBuilder &b, Location loc, Value tensor,
               ArrayRef<int64_t> reduced);

/// The scalar rsqrt(sum * invCount + eps), inside a generic body.
Value buildRstd(OpBuilder &b, Location loc, Value sum, Value invCount,
                double eps);

/// mean = sum(x)/n, var = sum((x - mean)^2)/n (two passes, biased),
/// rstd = rsqrt(var + eps) over the `reduced` dims of `x`.
NormStats buildMeanRstd(OpBuilder &b, Location loc, Value x,
                        ArrayRef<int64_t> reduced, double eps);

/// rstd = rsqrt(sum(x^2)/n + eps) over the `reduced` dims of `x`.
NormStats buildRmsRstd(OpBuilder &b, Location loc, Value x,
                       ArrayRef<int64_t> reduced, double eps);

/// Splits dim `dim` (size C) of `tensor` into [groups, C/groups]
/// (tensor.expand_shape; a dynamic C gives a dynamic C/groups).
Value expandGroups(OpBuilder &b, Location loc, Value tensor, int64_t dim,
                   int64_t groups);

/// The inverse of expandGroups: merges dims `dim` and `dim + 1`.
Value collapseGroups(OpBuilder &b, Location loc, Value tensor, int64_t dim);

/// The map of the domain (rank `rank`) onto the dims in `kept`, in order
/// (e.g. gamma's map).
AffineMap keepDimsMap(MLIRContext *ctx, int64_t rank, ArrayRef<int64_t> kept);

/// All dims of a rank-`rank` domain except those in `kept`.
SmallVector<int64_t> otherDims(int64_t rank, ArrayRef<int64_t> kept);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_NORMUTILS_H
