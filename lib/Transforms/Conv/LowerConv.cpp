//===- LowerConv.cpp - Conv forward ops to linalg --------------===//
//
// rlx.conv2d = tensor.pad (when padding) + one linalg convolution:
//
//   xp = pad(x, p)                         [N, Ci, H + 2pH, W + 2pW]
//   y  = conv_2d_nchw_fchw(xp, w)          groups == 1
//   y  = collapse(conv_2d_ngchw_gfchw(expand(xp), expand(w)))   groups > 1
//
// or, with forward-conv-direct (the default), one direct-convolution
// contraction generic (ConvUtils.h, buildDirectConv2d) that
// rlx-optimize-contractions vectorizes along the output columns, or, with
// forward-conv-channels-last (the default) and output channels per group a
// multiple of 16, along those channels (then transposed to NCHW). With any
// channel, spatial or kernel dim dynamic: pad + one general contraction on
// group-split views (buildGeneralConv2d), sizes from tensor.dim.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Conv/ConvUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// y[n, co, i, j] = sum_{c, a, b} w[co, c, a, b]
///                  * xp[n, g(co)*Ci/G + c, i*s + a*d, j*s + b*d].
static FailureOr<SmallVector<Value>>
lowerConv2d(RewriterBase &rewriter, Conv2dOp op,
            const LoweringOptions &options) {
  Location loc = op.getLoc();
  Value xp =
      padSpatial(rewriter, loc, op.getX(), op.getPadding(), op.getPadding());
  // A dynamic channel, spatial or kernel dim takes the general contraction
  // (sizes from tensor.dim); the specialised forms need them static.
  bool staticDims = hasStaticConvDims({op.getX(), op.getW()}) &&
                    !cast<ShapedType>(op.getW().getType()).isDynamicDim(0);
  if (!staticDims)
    return SmallVector<Value>{buildGeneralConv2d(rewriter, loc, xp, op.getW(),
                                                 op.getGroups(), op.getStride(),
                                                 op.getDilation())};
  Value y =
      options.forwardConvDirect
          ? buildDirectConv2d(rewriter, loc, xp, op.getW(), op.getGroups(),
                              op.getStride(), op.getDilation(),
                              options.forwardConvChannelsLast)
          : buildGroupedConv2d(rewriter, loc, xp, op.getW(), op.getGroups(),
                               op.getStride(), op.getDilation());
  return SmallVector<Value>{y};
}

void mlir::rlx::populateConvLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<Lowering<Conv2dOp, lowerConv2d>>(patterns, options);
}
