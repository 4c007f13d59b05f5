//===- LowerNorm.cpp - Norm forward ops to linalg -------------------------===//
//
// Every norm is the statistics of NormUtils (a fixed number of linalg.generic
// reductions, whatever the sizes) followed by one elementwise generic:
//
//   layer_norm: y = (x - mean) * rstd * gamma[d] + beta[d]   over the last axis
//   rms_norm:   y = x * rstd * gamma[d] + beta[d]
//   group_norm: the layer_norm formula on the [N, G, C/G, H*W] view of x
//               (tensor.expand_shape), statistics over (C/G, H, W), gamma and
//               beta viewed as [G, C/G]; the result is collapsed back.
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

/// y = (x - mean) * rstd * gamma + beta over `domain` (stats.mean null:
/// y = x * rstd * gamma + beta).
static Value buildAffineNormalize(OpBuilder &b, Location loc,
                                  const NormDomain &domain, Value gamma,
                                  Value beta, const NormStats &stats) {
  AffineMap param = domain.paramMap(), stat = domain.statMap();
  SmallVector<GenericOperand> inputs = {{domain.x, domain.identityMap()},
                                        {gamma, param},
                                        {beta, param},
                                        {stats.rstd, stat}};
  if (stats.mean)
    inputs.push_back({stats.mean, stat});
  return buildParallel(
      b, loc, tensor::getMixedSizes(b, loc, domain.x), domain.elementType(),
      inputs, 1, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value centred =
            stats.mean
                ? arith::SubFOp::create(nb, nloc, args[0], args[4]).getResult()
                : args[0];
        Value xh = arith::MulFOp::create(nb, nloc, centred, args[3]);
        Value scaled = arith::MulFOp::create(nb, nloc, xh, args[1]);
        return SmallVector<Value>{
            arith::AddFOp::create(nb, nloc, scaled, args[2])};
      })[0];
}

/// layer_norm (mean/rstd) and rms_norm (rstd only) over the last axis, then
/// one elementwise generic.
template <typename OpTy,
          NormStats (*Stats)(OpBuilder &, Location, const NormDomain &, double)>
static FailureOr<SmallVector<Value>>
lowerRowNorm(RewriterBase &rewriter, OpTy op, const LoweringOptions &) {
  Location loc = op.getLoc();
  NormDomain domain = rowNormDomain(op.getX());
  NormStats stats = Stats(rewriter, loc, domain, op.getEps().convertToDouble());
  return SmallVector<Value>{buildAffineNormalize(
      rewriter, loc, domain, op.getGamma(), op.getBeta(), stats)};
}

/// group_norm: on x viewed as [N, G, C/G, H*W], mean/rstd over dims
/// (2, 3), gamma/beta viewed as [G, C/G] on dims (1, 2).
static FailureOr<SmallVector<Value>> lowerGroupNorm(RewriterBase &rewriter,
                                                    GroupNormOp op,
                                                    const LoweringOptions &) {
  Location loc = op.getLoc();
  GroupViews views =
      expandGroupViews(rewriter, loc, op.getNumGroups(), {op.getX()},
                       {op.getGamma(), op.getBeta()});
  NormDomain domain = groupNormDomain(views.xLike[0]);
  NormStats stats =
      buildMeanRstd(rewriter, loc, domain, op.getEps().convertToDouble());
  Value y = buildAffineNormalize(rewriter, loc, domain, views.params[0],
                                 views.params[1], stats);
  return SmallVector<Value>{collapseGroupView(rewriter, loc, y, op.getX())};
}

void mlir::rlx::populateNormLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<
      Lowering<LayerNormOp, lowerRowNorm<LayerNormOp, buildMeanRstd>>,
      Lowering<RmsNormOp, lowerRowNorm<RmsNormOp, buildRmsRstd>>,
      Lowering<GroupNormOp, lowerGroupNorm>>(patterns, options);
}
