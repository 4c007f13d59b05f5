//===- DecomposeNormBackward.cpp - Norm gradients -------------------------===//
//
// Every gradient recomputes its statistics from the forward inputs and emits
// a fixed number of linalg.generic ops whatever the tensor sizes. The domain
// is x itself for layer/rms norm (statistics over the last axis, parameters
// [D] on that axis) and the [N, G, C/G, H, W] view of x for group norm
// (statistics over dims 2, 3, 4, parameters viewed as [G, C/G] on dims 1, 2).
//
// Input gradients fuse all row sums into one multi-output reduction:
//
//   layer/group: s1 = sum(x)                                    (reduction 1)
//                s2 = sum((x-m)^2), sg = sum(g), sgc = sum(g*(x-m))
//                                                 (reduction 2, m = s1/n)
//                per row: mean, r = rsqrt(s2/n + eps), cg = sg/n,
//                         cgx = r*sgc/n        (= mean(g*xh), xh = (x-mean)*r)
//                dx = r*(g - cg - xh*cgx)                       (elementwise)
//   rms:         sxx = sum(x^2), sgx = sum(g*x)            (one reduction)
//                per row: r = rsqrt(sxx/n + eps), c = r^3*sgx/n
//                dx = r*g - x*c                                 (elementwise)
//
// with g = dy * gamma. Parameter gradients are one reduction over every dim
// but the parameter's, after the statistics.
//
//===----------------------------------------------------------------------===//
#include "Common/BuildUtils.h"
#include "Norm/NormUtils.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Shared builders
//===----------------------------------------------------------------------===//

/// dx = r*(g - mean(g) - xh*mean(g*xh)), g = dy*gamma, xh = (x - mean)*r,
/// over the domain of `x` with statistics over `reduced` and gamma on
/// `paramDims` (see the file comment for the IR).
static Value buildMeanNormInputGrad(OpBuilder &b, Location loc, Value x,
                                    Value gamma, Value dy,
                                    ArrayRef<int64_t> paramDims,
                                    ArrayRef<int64_t> reduced, double eps) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  Type e = type.getElementType();
  MLIRContext *ctx = b.getContext();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap param = keepDimsMap(ctx, rank, paramDims);
  AffineMap stat = dropDimsMap(ctx, rank, reduced);
  Value inv = buildInverseCount(b, loc, x, reduced, e);

  // s1 = sum(x)
  Value s1 = buildSum(b, loc, x, reduced);
  // One pass, three sums: with c = x - s1/n and g = dy*gamma,
  // s2 = sum(c^2), sg = sum(g), sgc = sum(g*c).
  SmallVector<Value> sums = buildSums(
      b, loc, x, reduced, {x, gamma, dy, s1}, {id, param, id, stat}, 3,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value mean = arith::MulFOp::create(nb, nloc, args[3], inv);
        Value c = arith::SubFOp::create(nb, nloc, args[0], mean);
        Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, c, c), g,
                                  arith::MulFOp::create(nb, nloc, g, c)};
      });
  // Per row: mean, r = rsqrt(s2/n + eps), cg = sg/n, cgx = r*sgc/n.
  SmallVector<OpFoldResult> rowSizes = keptSizes(b, loc, x, reduced);
  AffineMap rowId = b.getMultiDimIdentityMap(rowSizes.size());
  SmallVector<Value> rows = buildParallel(
      b, loc, rowSizes, e, {s1, sums[0], sums[1], sums[2]},
      {rowId, rowId, rowId, rowId}, 4,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value mean = arith::MulFOp::create(nb, nloc, args[0], inv);
        Value r = buildRstd(nb, nloc, args[1], inv, eps);
        Value cg = arith::MulFOp::create(nb, nloc, args[2], inv);
        Value cgx = arith::MulFOp::create(
            nb, nloc, arith::MulFOp::create(nb, nloc, args[3], inv), r);
        return SmallVector<Value>{mean, r, cg, cgx};
      });
  // dx = r*(g - cg - xh*cgx), xh = (x - mean)*r.
  return buildParallel(
      b, loc, mixedSizes(b, loc, x), e,
      {x, gamma, dy, rows[0], rows[1], rows[2], rows[3]},
      {id, param, id, stat, stat, stat, stat}, 1,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = args[4];
        Value xh = arith::MulFOp::create(
            nb, nloc, arith::SubFOp::create(nb, nloc, args[0], args[3]), r);
        Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
        Value t = arith::SubFOp::create(nb, nloc, g, args[5]);
        t = arith::SubFOp::create(
            nb, nloc, t, arith::MulFOp::create(nb, nloc, xh, args[6]));
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, r, t)};
      })[0];
}

/// sum over every dim but `paramDims` of dy*xh, xh = (x - mean)*r with the
/// statistics over `reduced`.
static Value buildMeanNormGammaGrad(OpBuilder &b, Location loc, Value x,
                                    Value dy, ArrayRef<int64_t> paramDims,
                                    ArrayRef<int64_t> reduced, double eps) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap stat = dropDimsMap(b.getContext(), rank, reduced);
  NormStats stats = buildMeanRstd(b, loc, x, reduced, eps);
  return buildSums(b, loc, x, otherDims(rank, paramDims),
                   {x, dy, stats.mean, stats.rstd}, {id, id, stat, stat}, 1,
                   [](OpBuilder &nb, Location nloc, ValueRange args) {
                     Value xh = arith::MulFOp::create(
                         nb, nloc,
                         arith::SubFOp::create(nb, nloc, args[0], args[2]),
                         args[3]);
                     return SmallVector<Value>{
                         arith::MulFOp::create(nb, nloc, args[1], xh)};
                   })[0];
}

/// sum over every dim of `dy` but `paramDim`.
static Value buildBetaGrad(OpBuilder &b, Location loc, Value dy,
                           int64_t paramDim) {
  int64_t rank = cast<RankedTensorType>(dy.getType()).getRank();
  return buildSum(b, loc, dy, otherDims(rank, {paramDim}));
}

static int64_t lastDim(Value x) {
  return cast<RankedTensorType>(x.getType()).getRank() - 1;
}

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

/// dx = r*(g - mean(g) - xh*mean(g*xh)) over the last axis.
static FailureOr<SmallVector<Value>>
decomposeLayerNormBackwardInput(RewriterBase &rewriter,
                                LayerNormBackwardInputOp op,
                                const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  int64_t last = lastDim(op.getX());
  return SmallVector<Value>{buildMeanNormInputGrad(
      rewriter, op.getLoc(), op.getX(), op.getGamma(), op.getDy(), {last},
      {last}, op.getEps().convertToDouble())};
}

/// dgamma[d] = sum over the leading dims of dy*xh.
static FailureOr<SmallVector<Value>>
decomposeLayerNormBackwardGamma(RewriterBase &rewriter,
                                LayerNormBackwardGammaOp op,
                                const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  int64_t last = lastDim(op.getX());
  return SmallVector<Value>{
      buildMeanNormGammaGrad(rewriter, op.getLoc(), op.getX(), op.getDy(),
                             {last}, {last}, op.getEps().convertToDouble())};
}

/// dbeta[d] = sum over the leading dims of dy (layer and rms norm alike).
template <typename OpTy>
static FailureOr<SmallVector<Value>>
decomposeRowNormBackwardBeta(RewriterBase &rewriter, OpTy op,
                             const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  return SmallVector<Value>{buildBetaGrad(rewriter, op.getLoc(), op.getDy(),
                                          lastDim(op.getDy()))};
}

//===----------------------------------------------------------------------===//
// RMS norm
//===----------------------------------------------------------------------===//

/// dx = r*(g - x*r^2*mean(g*x)) = r*g - x*c with c = r^3*mean(g*x),
/// r = rsqrt(mean(x^2) + eps): sum(x^2) and sum(g*x) in one reduction.
static FailureOr<SmallVector<Value>>
decomposeRmsNormBackwardInput(RewriterBase &rewriter,
                              RmsNormBackwardInputOp op,
                              const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  Value x = op.getX();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), last = rank - 1;
  Type e = type.getElementType();
  double eps = op.getEps().convertToDouble();
  MLIRContext *ctx = rewriter.getContext();
  AffineMap id = rewriter.getMultiDimIdentityMap(rank);
  AffineMap param = keepDimsMap(ctx, rank, {last});
  AffineMap stat = dropDimsMap(ctx, rank, {last});
  Value inv = buildInverseCount(rewriter, loc, x, {last}, e);

  // sxx = sum(x^2), sgx = sum(dy*gamma*x)
  SmallVector<Value> sums = buildSums(
      rewriter, loc, x, {last}, {x, op.getGamma(), op.getDy()},
      {id, param, id}, 2, [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
        return SmallVector<Value>{
            arith::MulFOp::create(nb, nloc, args[0], args[0]),
            arith::MulFOp::create(nb, nloc, g, args[0])};
      });
  // Per row: r = rsqrt(sxx/n + eps), c = r^3 * sgx/n.
  SmallVector<OpFoldResult> rowSizes = keptSizes(rewriter, loc, x, {last});
  AffineMap rowId = rewriter.getMultiDimIdentityMap(rowSizes.size());
  SmallVector<Value> rows = buildParallel(
      rewriter, loc, rowSizes, e, sums, {rowId, rowId}, 2,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = buildRstd(nb, nloc, args[0], inv, eps);
        Value r3 = arith::MulFOp::create(
            nb, nloc, arith::MulFOp::create(nb, nloc, r, r), r);
        Value mgx = arith::MulFOp::create(nb, nloc, args[1], inv);
        return SmallVector<Value>{r, arith::MulFOp::create(nb, nloc, r3, mgx)};
      });
  // dx = r*g - x*c
  Value dx = buildParallel(
      rewriter, loc, mixedSizes(rewriter, loc, x), e,
      {x, op.getGamma(), op.getDy(), rows[0], rows[1]},
      {id, param, id, stat, stat}, 1,
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
        Value rg = arith::MulFOp::create(nb, nloc, args[3], g);
        Value xc = arith::MulFOp::create(nb, nloc, args[0], args[4]);
        return SmallVector<Value>{arith::SubFOp::create(nb, nloc, rg, xc)};
      })[0];
  return SmallVector<Value>{dx};
}

/// dgamma[d] = sum over the leading dims of dy*x*r.
static FailureOr<SmallVector<Value>>
decomposeRmsNormBackwardGamma(RewriterBase &rewriter,
                              RmsNormBackwardGammaOp op,
                              const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  Value x = op.getX();
  int64_t last = lastDim(x), rank = last + 1;
  NormStats stats =
      buildRmsRstd(rewriter, loc, x, {last}, op.getEps().convertToDouble());
  AffineMap id = rewriter.getMultiDimIdentityMap(rank);
  AffineMap stat = dropDimsMap(rewriter.getContext(), rank, {last});
  Value dgamma =
      buildSums(rewriter, loc, x, otherDims(rank, {last}),
                {x, op.getDy(), stats.rstd}, {id, id, stat}, 1,
                [](OpBuilder &nb, Location nloc, ValueRange args) {
                  Value xr = arith::MulFOp::create(nb, nloc, args[0], args[2]);
                  return SmallVector<Value>{
                      arith::MulFOp::create(nb, nloc, args[1], xr)};
                })[0];
  return SmallVector<Value>{dgamma};
}

//===----------------------------------------------------------------------===//
// Group norm
//===----------------------------------------------------------------------===//

/// The layer-norm input gradient on the [N, G, C/G, H, W] view, gamma viewed
/// as [G, C/G]; the result is collapsed back to [N, C, H, W].
static FailureOr<SmallVector<Value>>
decomposeGroupNormBackwardInput(RewriterBase &rewriter,
                                GroupNormBackwardInputOp op,
                                const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  int64_t groups = op.getNumGroups();
  Value x = expandGroups(rewriter, loc, op.getX(), 1, groups);
  Value dy = expandGroups(rewriter, loc, op.getDy(), 1, groups);
  Value gamma = expandGroups(rewriter, loc, op.getGamma(), 0, groups);
  Value dx = buildMeanNormInputGrad(rewriter, loc, x, gamma, dy, {1, 2},
                                    {2, 3, 4}, op.getEps().convertToDouble());
  return SmallVector<Value>{collapseGroups(rewriter, loc, dx, 1)};
}

/// dgamma[c] = sum over n, h, w of dy*xh, on the [N, G, C/G, H, W] view
/// (a [G, C/G] result collapsed to [C]).
static FailureOr<SmallVector<Value>>
decomposeGroupNormBackwardGamma(RewriterBase &rewriter,
                                GroupNormBackwardGammaOp op,
                                const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  int64_t groups = op.getNumGroups();
  Value x = expandGroups(rewriter, loc, op.getX(), 1, groups);
  Value dy = expandGroups(rewriter, loc, op.getDy(), 1, groups);
  Value dgamma = buildMeanNormGammaGrad(rewriter, loc, x, dy, {1, 2},
                                        {2, 3, 4},
                                        op.getEps().convertToDouble());
  return SmallVector<Value>{collapseGroups(rewriter, loc, dgamma, 0)};
}

/// dbeta[c] = sum over n, h, w of dy (no statistics needed).
static FailureOr<SmallVector<Value>>
decomposeGroupNormBackwardBeta(RewriterBase &rewriter,
                               GroupNormBackwardBetaOp op,
                               const DecompositionOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  return SmallVector<Value>{buildBetaGrad(rewriter, op.getLoc(), op.getDy(), 1)};
}

using NormDecompositions = DecompositionList<
    Decomposition<LayerNormBackwardInputOp, decomposeLayerNormBackwardInput>,
    Decomposition<LayerNormBackwardGammaOp, decomposeLayerNormBackwardGamma>,
    Decomposition<LayerNormBackwardBetaOp,
                  decomposeRowNormBackwardBeta<LayerNormBackwardBetaOp>>,
    Decomposition<RmsNormBackwardInputOp, decomposeRmsNormBackwardInput>,
    Decomposition<RmsNormBackwardGammaOp, decomposeRmsNormBackwardGamma>,
    Decomposition<RmsNormBackwardBetaOp,
                  decomposeRowNormBackwardBeta<RmsNormBackwardBetaOp>>,
    Decomposition<GroupNormBackwardInputOp, decomposeGroupNormBackwardInput>,
    Decomposition<GroupNormBackwardGammaOp, decomposeGroupNormBackwardGamma>,
    Decomposition<GroupNormBackwardBetaOp, decomposeGroupNormBackwardBeta>>;

void mlir::rlx::populateNormDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  NormDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachNormDecompositionModels(MLIRContext *ctx) {
  NormDecompositions::attachModels(ctx);
}
