//===- LowerNorm.cpp - Norm forward ops to linalg -------------------------===//
//
// Every norm is the statistics of NormUtils (a fixed number of linalg.generic
// reductions, whatever the sizes) followed by one elementwise generic:
//
//   layer_norm: y = (x - mean) * rstd * gamma[d] + beta[d]   over the last axis
//   rms_norm:   y = x * rstd * gamma[d] + beta[d]
//   group_norm: the layer_norm formula on the [N, G, C/G, H, W] view of x
//               (tensor.expand_shape), statistics over (C/G, H, W), gamma and
//               beta viewed as [G, C/G]; the result is collapsed back.
//
//===----------------------------------------------------------------------===//
#include "Common/BuildUtils.h"
#include "Norm/NormUtils.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

/// y = (x - mean) * rstd * gamma + beta over the domain of `x` (stats.mean
/// null: y = x * rstd * gamma + beta). gamma and beta are read through the
/// dims `paramDims` of the domain; the statistics through the other dims
/// minus `reduced`.
static Value buildAffineNormalize(OpBuilder &b, Location loc, Value x,
                                  Value gamma, Value beta,
                                  ArrayRef<int64_t> paramDims,
                                  ArrayRef<int64_t> reduced,
                                  const NormStats &stats) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap param = keepDimsMap(ctx, rank, paramDims);
  AffineMap stat = dropDimsMap(ctx, rank, reduced);
  SmallVector<Value> inputs = {x, gamma, beta, stats.rstd};
  SmallVector<AffineMap> maps = {id, param, param, stat};
  if (stats.mean) {
    inputs.push_back(stats.mean);
    maps.push_back(stat);
  }
  return buildParallel(
      b, loc, mixedSizes(b, loc, x), type.getElementType(), inputs, maps, 1,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value centred = stats.mean
                            ? arith::SubFOp::create(nb, nloc, args[0], args[4])
                                  .getResult()
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
          NormStats (*Stats)(OpBuilder &, Location, Value, ArrayRef<int64_t>,
                             double)>
static FailureOr<SmallVector<Value>>
lowerRowNorm(RewriterBase &rewriter, OpTy op, const LoweringOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  int64_t last = op.getX().getType().getRank() - 1;
  NormStats stats =
      Stats(rewriter, loc, op.getX(), {last}, op.getEps().convertToDouble());
  return SmallVector<Value>{buildAffineNormalize(rewriter, loc, op.getX(),
                                                 op.getGamma(), op.getBeta(),
                                                 {last}, {last}, stats)};
}

/// group_norm: on x viewed as [N, G, C/G, H, W], mean/rstd over dims
/// (2, 3, 4), gamma/beta viewed as [G, C/G] on dims (1, 2).
static FailureOr<SmallVector<Value>>
lowerGroupNorm(RewriterBase &rewriter, GroupNormOp op, const LoweringOptions &) {
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  int64_t groups = op.getNumGroups();
  Value x = expandGroups(rewriter, loc, op.getX(), 1, groups);
  Value gamma = expandGroups(rewriter, loc, op.getGamma(), 0, groups);
  Value beta = expandGroups(rewriter, loc, op.getBeta(), 0, groups);
  NormStats stats =
      buildMeanRstd(rewriter, loc, x, {2, 3, 4}, op.getEps().convertToDouble());
  Value y = buildAffineNormalize(rewriter, loc, x, gamma, beta, {1, 2},
                                 {2, 3, 4}, stats);
  return SmallVector<Value>{collapseGroups(rewriter, loc, y, 1)};
}

void mlir::rlx::populateNormLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<
      Lowering<LayerNormOp, lowerRowNorm<LayerNormOp, buildMeanRstd>>,
      Lowering<RmsNormOp, lowerRowNorm<RmsNormOp, buildRmsRstd>>,
      Lowering<GroupNormOp, lowerGroupNorm>>(patterns, options);
}
