//===- DecomposeNormBackward.cpp - Norm gradients -------------------------===//
//
// Every gradient recomputes its statistics from the forward inputs and emits
// a fixed number of linalg.generic ops whatever the tensor sizes. The domain
// is x itself for layer/rms norm (statistics over the last axis, parameters
// [D] on that axis) and the [N, G, C/G, H*W] view of x for group norm
// (statistics over dims 2, 3, parameters viewed as [G, C/G] on dims 1, 2).
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
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Norm/NormUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Shared builders
//===----------------------------------------------------------------------===//

/// dx = r*(g - mean(g) - xh*mean(g*xh)), g = dy*gamma, xh = (x - mean)*r,
/// over `domain` (see the file comment for the IR).
static Value buildMeanNormInputGrad(OpBuilder &b, Location loc,
                                    const NormDomain &domain, Value gamma,
                                    Value dy, double eps) {
  Value x = domain.x;
  Type e = domain.elementType();
  AffineMap id = domain.identityMap(), param = domain.paramMap(),
            stat = domain.statMap();
  Value inv = buildInverseCount(b, loc, domain);

  // s1 = sum(x)
  Value s1 = buildSum(b, loc, x, domain.reduced);
  // One pass, three sums: with c = x - s1/n and g = dy*gamma,
  // s2 = sum(c^2), sg = sum(g), sgc = sum(g*c).
  SmallVector<Value> sums = buildSums(
      b, loc, x, domain.reduced,
      {{x, id}, {gamma, param}, {dy, id}, {s1, stat}}, 3,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value mean = arith::MulFOp::create(nb, nloc, args[3], inv);
        Value c = arith::SubFOp::create(nb, nloc, args[0], mean);
        Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, c, c), g,
                                  arith::MulFOp::create(nb, nloc, g, c)};
      });
  // Per row: mean, r = rsqrt(s2/n + eps), cg = sg/n, cgx = r*sgc/n.
  SmallVector<OpFoldResult> rowSizes = sizesWithout(b, loc, x, domain.reduced);
  AffineMap row = b.getMultiDimIdentityMap(rowSizes.size());
  SmallVector<Value> rows = buildParallel(
      b, loc, rowSizes, e,
      {{s1, row}, {sums[0], row}, {sums[1], row}, {sums[2], row}}, 4,
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
      b, loc, tensor::getMixedSizes(b, loc, x), e,
      {{x, id},
       {gamma, param},
       {dy, id},
       {rows[0], stat},
       {rows[1], stat},
       {rows[2], stat},
       {rows[3], stat}},
      1, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = args[4];
        Value xh = arith::MulFOp::create(
            nb, nloc, arith::SubFOp::create(nb, nloc, args[0], args[3]), r);
        Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
        Value t = arith::SubFOp::create(nb, nloc, g, args[5]);
        t = arith::SubFOp::create(nb, nloc, t,
                                  arith::MulFOp::create(nb, nloc, xh, args[6]));
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, r, t)};
      })[0];
}

/// sum over every dim but the parameter dims of dy*xh, xh = (x - mean)*r.
static Value buildMeanNormGammaGrad(OpBuilder &b, Location loc,
                                    const NormDomain &domain, Value dy,
                                    double eps) {
  AffineMap id = domain.identityMap(), stat = domain.statMap();
  NormStats stats = buildMeanRstd(b, loc, domain, eps);
  return buildSums(
      b, loc, domain.x, domain.nonParamDims(),
      {{domain.x, id}, {dy, id}, {stats.mean, stat}, {stats.rstd, stat}}, 1,
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value xh = arith::MulFOp::create(
            nb, nloc, arith::SubFOp::create(nb, nloc, args[0], args[2]),
            args[3]);
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, args[1], xh)};
      })[0];
}

/// sum over every dim of `dy` but `paramDim`.
static Value buildBetaGrad(OpBuilder &b, Location loc, Value dy,
                           int64_t paramDim) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0, e = cast<RankedTensorType>(dy.getType()).getRank(); d < e;
       ++d)
    if (d != paramDim)
      dims.push_back(d);
  return buildSum(b, loc, dy, dims);
}

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

/// dx = r*(g - mean(g) - xh*mean(g*xh)) over the last axis.
static FailureOr<SmallVector<Value>>
decomposeLayerNormBackwardInput(RewriterBase &rewriter,
                                LayerNormBackwardInputOp op,
                                const DecompositionOptions &) {
  return SmallVector<Value>{buildMeanNormInputGrad(
      rewriter, op.getLoc(), rowNormDomain(op.getX()), op.getGamma(),
      op.getDy(), op.getEps().convertToDouble())};
}

/// dgamma[d] = sum over the leading dims of dy*xh.
static FailureOr<SmallVector<Value>>
decomposeLayerNormBackwardGamma(RewriterBase &rewriter,
                                LayerNormBackwardGammaOp op,
                                const DecompositionOptions &) {
  return SmallVector<Value>{
      buildMeanNormGammaGrad(rewriter, op.getLoc(), rowNormDomain(op.getX()),
                             op.getDy(), op.getEps().convertToDouble())};
}

/// dbeta[d] = sum over the leading dims of dy (layer and rms norm alike).
template <typename OpTy>
static FailureOr<SmallVector<Value>>
decomposeRowNormBackwardBeta(RewriterBase &rewriter, OpTy op,
                             const DecompositionOptions &) {
  int64_t last = op.getDy().getType().getRank() - 1;
  return SmallVector<Value>{
      buildBetaGrad(rewriter, op.getLoc(), op.getDy(), last)};
}

//===----------------------------------------------------------------------===//
// RMS norm
//===----------------------------------------------------------------------===//

/// dx = r*(g - x*r^2*mean(g*x)) = r*g - x*c with c = r^3*mean(g*x),
/// r = rsqrt(mean(x^2) + eps): sum(x^2) and sum(g*x) in one reduction.
static FailureOr<SmallVector<Value>>
decomposeRmsNormBackwardInput(RewriterBase &rewriter, RmsNormBackwardInputOp op,
                              const DecompositionOptions &) {
  Location loc = op.getLoc();
  NormDomain domain = rowNormDomain(op.getX());
  Value x = domain.x;
  Type e = domain.elementType();
  double eps = op.getEps().convertToDouble();
  AffineMap id = domain.identityMap(), param = domain.paramMap(),
            stat = domain.statMap();
  Value inv = buildInverseCount(rewriter, loc, domain);

  // sxx = sum(x^2), sgx = sum(dy*gamma*x)
  SmallVector<Value> sums =
      buildSums(rewriter, loc, x, domain.reduced,
                {{x, id}, {op.getGamma(), param}, {op.getDy(), id}}, 2,
                [](OpBuilder &nb, Location nloc, ValueRange args) {
                  Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
                  return SmallVector<Value>{
                      arith::MulFOp::create(nb, nloc, args[0], args[0]),
                      arith::MulFOp::create(nb, nloc, g, args[0])};
                });
  // Per row: r = rsqrt(sxx/n + eps), c = r^3 * sgx/n.
  SmallVector<OpFoldResult> rowSizes =
      sizesWithout(rewriter, loc, x, domain.reduced);
  AffineMap row = rewriter.getMultiDimIdentityMap(rowSizes.size());
  SmallVector<Value> rows = buildParallel(
      rewriter, loc, rowSizes, e, {{sums[0], row}, {sums[1], row}}, 2,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = buildRstd(nb, nloc, args[0], inv, eps);
        Value r3 = arith::MulFOp::create(
            nb, nloc, arith::MulFOp::create(nb, nloc, r, r), r);
        Value mgx = arith::MulFOp::create(nb, nloc, args[1], inv);
        return SmallVector<Value>{r, arith::MulFOp::create(nb, nloc, r3, mgx)};
      });
  // dx = r*g - x*c
  Value dx = buildParallel(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, x), e,
      {{x, id},
       {op.getGamma(), param},
       {op.getDy(), id},
       {rows[0], stat},
       {rows[1], stat}},
      1, [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value g = arith::MulFOp::create(nb, nloc, args[2], args[1]);
        Value rg = arith::MulFOp::create(nb, nloc, args[3], g);
        Value xc = arith::MulFOp::create(nb, nloc, args[0], args[4]);
        return SmallVector<Value>{arith::SubFOp::create(nb, nloc, rg, xc)};
      })[0];
  return SmallVector<Value>{dx};
}

/// dgamma[d] = sum over the leading dims of dy*x*r.
static FailureOr<SmallVector<Value>>
decomposeRmsNormBackwardGamma(RewriterBase &rewriter, RmsNormBackwardGammaOp op,
                              const DecompositionOptions &) {
  Location loc = op.getLoc();
  NormDomain domain = rowNormDomain(op.getX());
  NormStats stats =
      buildRmsRstd(rewriter, loc, domain, op.getEps().convertToDouble());
  AffineMap id = domain.identityMap(), stat = domain.statMap();
  Value dgamma = buildSums(
      rewriter, loc, domain.x, domain.nonParamDims(),
      {{domain.x, id}, {op.getDy(), id}, {stats.rstd, stat}}, 1,
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value xr = arith::MulFOp::create(nb, nloc, args[0], args[2]);
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, args[1], xr)};
      })[0];
  return SmallVector<Value>{dgamma};
}

//===----------------------------------------------------------------------===//
// Group norm
//===----------------------------------------------------------------------===//

/// The layer-norm input gradient on the [N, G, C/G, H*W] view, gamma viewed
/// as [G, C/G]; the result is reshaped back to [N, C, H, W].
static FailureOr<SmallVector<Value>>
decomposeGroupNormBackwardInput(RewriterBase &rewriter,
                                GroupNormBackwardInputOp op,
                                const DecompositionOptions &) {
  Location loc = op.getLoc();
  GroupViews views = expandGroupViews(rewriter, loc, op.getNumGroups(),
                                      {op.getX(), op.getDy()}, {op.getGamma()});
  Value dx = buildMeanNormInputGrad(
      rewriter, loc, groupNormDomain(views.xLike[0]), views.params[0],
      views.xLike[1], op.getEps().convertToDouble());
  return SmallVector<Value>{collapseGroupView(rewriter, loc, dx, op.getX())};
}

/// dgamma[c] = sum over n, h, w of dy*xh, on the [N, G, C/G, H*W] view
/// (a [G, C/G] result collapsed to [C]).
static FailureOr<SmallVector<Value>>
decomposeGroupNormBackwardGamma(RewriterBase &rewriter,
                                GroupNormBackwardGammaOp op,
                                const DecompositionOptions &) {
  Location loc = op.getLoc();
  GroupViews views = expandGroupViews(rewriter, loc, op.getNumGroups(),
                                      {op.getX(), op.getDy()}, {});
  Value dgamma =
      buildMeanNormGammaGrad(rewriter, loc, groupNormDomain(views.xLike[0]),
                             views.xLike[1], op.getEps().convertToDouble());
  return SmallVector<Value>{collapseGroups(rewriter, loc, dgamma, 0)};
}

/// dbeta[c] = sum over n, h, w of dy (no statistics needed).
static FailureOr<SmallVector<Value>>
decomposeGroupNormBackwardBeta(RewriterBase &rewriter,
                               GroupNormBackwardBetaOp op,
                               const DecompositionOptions &) {
  return SmallVector<Value>{
      buildBetaGrad(rewriter, op.getLoc(), op.getDy(), 1)};
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
