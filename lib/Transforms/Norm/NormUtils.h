//===- NormUtils.h - statistics shared by the norm rewrites -----*- C++ -*-===//
//
// The norm lowerings (LowerNorm.cpp) and gradients (DecomposeNormBackward.cpp)
// share how statistics are recomputed and how group norm is viewed:
//
// - A normalisation runs over an iteration *domain* (a tensor's shape) in
//   which some dims are *reduced*: the last dim for layer/rms norm, and
//   (C/G, H*W) of the [N, G, C/G, H*W] view for group norm. Statistics are
//   tensors over the kept dims; gamma and beta are read through the
//   *parameter* dims (the last dim, or (G, C/G)).
// - Each statistic pass is one linalg.generic whatever the tensor sizes; sums
//   that read the same inputs are fused into one multi-output reduction
//   (buildSums, Common/Builders.h).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_NORM_NORMUTILS_H
#define RLX_LIB_TRANSFORMS_NORM_NORMUTILS_H

#include "Common/Builders.h"

namespace mlir::rlx {

/// The iteration domain of a norm rewrite: the (possibly group-viewed) x,
/// the dims its statistics reduce, and the dims gamma/beta are read through.
struct NormDomain {
  Value x;
  SmallVector<int64_t> reduced;
  SmallVector<unsigned> paramDims;

  int64_t rank() const;
  Type elementType() const;
  /// The identity map of the domain.
  AffineMap identityMap() const;
  /// The map of a statistic (the domain without `reduced`).
  AffineMap statMap() const;
  /// The map of gamma/beta (the domain onto `paramDims`).
  AffineMap paramMap() const;
  /// Every dim but `paramDims`: what a parameter gradient sums over.
  SmallVector<int64_t> nonParamDims() const;
};

/// Layer/rms norm: x itself, statistics over the last dim, gamma/beta on it.
NormDomain rowNormDomain(Value x);

/// The [N, G, C/G, H*W] (or [N, G, C/G, H, W]) view of group norm:
/// statistics over the dims from 2, parameters on (1, 2).
NormDomain groupNormDomain(Value xView);

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

/// 1/n for n the number of elements of the domain's reduced dims, as a
/// scalar of its element type: a constant when those dims are static,
/// tensor.dim arithmetic otherwise.
Value buildInverseCount(OpBuilder &b, Location loc, const NormDomain &domain);

/// The scalar rsqrt(sum * invCount + eps), inside a generic body.
Value buildRstd(OpBuilder &b, Location loc, Value sum, Value invCount,
                double eps);

/// mean = sum(x)/n, var = sum((x - mean)^2)/n (two passes, biased),
/// rstd = rsqrt(var + eps) over the reduced dims of the domain.
NormStats buildMeanRstd(OpBuilder &b, Location loc, const NormDomain &domain,
                        double eps);

/// rstd = rsqrt(sum(x^2)/n + eps) over the reduced dims of the domain.
NormStats buildRmsRstd(OpBuilder &b, Location loc, const NormDomain &domain,
                       double eps);

/// Splits dim `dim` (size C) of `tensor` into [groups, C/groups]
/// (tensor.expand_shape; a dynamic C gives a dynamic C/groups).
Value expandGroups(OpBuilder &b, Location loc, Value tensor, int64_t dim,
                   int64_t groups);

/// The inverse of expandGroups: merges dims `dim` and `dim + 1`.
Value collapseGroups(OpBuilder &b, Location loc, Value tensor, int64_t dim);

/// The group-norm views of x-shaped tensors ([N, C, H, W] -> [N, G, C/G,
/// H*W] when H and W are static: the spatial dims as one, so that a group's
/// statistics run over contiguous rows of H*W, not over rows of W with a
/// remainder each; else [N, G, C/G, H, W]) and parameters ([C] -> [G, C/G]),
/// in that order.
struct GroupViews {
  SmallVector<Value> xLike;
  SmallVector<Value> params;
};
GroupViews expandGroupViews(OpBuilder &b, Location loc, int64_t groups,
                            ValueRange xLike, ValueRange params);

/// The inverse of expandGroupViews for an x-shaped `view`: back to the
/// shape of `like` ([N, C, H, W]).
Value collapseGroupView(OpBuilder &b, Location loc, Value view, Value like);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_NORM_NORMUTILS_H
