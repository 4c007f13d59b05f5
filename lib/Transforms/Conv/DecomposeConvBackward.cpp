//===- DecomposeConvBackward.cpp - Conv gradients --------------===//
//
// conv2d_backward_weight: im2col + matmul.
//
//   col[g, (n,i,j), (c,a,b)] = xp[n, g*Cig + c, i*s + a*d, j*s + b*d]
//                              (one linalg.generic on the padded input)
//   dyT[co, (n,i,j)]         = dy[n, co, i, j]   (linalg.transpose + collapse)
//   dw[g*Cog + o, (c,a,b)]   = sum_{(n,i,j)} dyT[g*Cog + o, (n,i,j)]
//                                            * col[g, (n,i,j), (c,a,b)]
//                              (linalg.matmul, batch_matmul over groups)
//
// With im2col-max-elements the batch dimension is tiled by an scf.for that
// accumulates into the [Co, Cig*kH*kW] result.
//
// With conv-direct (the default) the weight gradient is one implicit-GEMM
// contraction instead (no im2col buffer; directWeightGrad), and the input
// gradient of an undilated convolution is computed one stride phase at a
// time, each a stride-1 contraction over only the taps that reach it (no
// inserted zeros; directInputGrad); with conv-channels-last and input
// channels per group a multiple of 16, each phase is computed channels-last
// (vectorized along the channels) and transposed back; with
// conv-phase-shuffle and a stride dividing H and W, every phase goes into
// one channels-last dx, transposed once. Otherwise:
//
// conv2d_backward_input: the transposed convolution. dy is dilated by the
// stride (zeros inserted) and padded by d(k-1) - p on each side (one strided
// tensor.insert_slice into a zero tensor; negative padding crops dy first),
// then convolved, stride 1 and dilation d, with the kernel flipped in kH, kW
// and its channels swapped per group:
//
//   wf[g*Cig + c, o, a, b] = w[g*Cog + o, c, kH-1-a, kW-1-b]
//   dx = conv(dyz, wf, groups = G)
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Conv/ConvUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxConvOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// conv2d_backward_input
//===----------------------------------------------------------------------===//

/// conv-direct (dilation 1): dx one stride phase (rh, rw) at a time, each a
/// stride-1 contraction over only the taps that reach it, so that no
/// inserted zero is multiplied. For h = rh + s*u the taps are
/// a = a0 + s*t (a0 = (rh + p) mod s, t < T = ceil((k - a0) / s)) and read
/// dy row i = u + e - t (e = (rh + p - a0) / s):
///
///   dxph[n, g, c, u, v] = sum_{o, t, t'} w[g, o, c, a0 + s*t, b0 + s*t']
///                         * dyp[n, g, o, L + u + e - t, L' + v + e' - t']
///   dx[n, g*Cig + c, rh + s*u, rw + s*v] = dxph[n, g, c, u, v]
///
/// dyp is dy zero-padded by the L / R the phases reach beyond it. With
/// `phaseShuffle` and s dividing H and W, dxph is written into one
/// phase-major buffer and one transpose interleaves the phases into dx.
static Value directInputGrad(OpBuilder &b, Location loc,
                             Conv2dBackwardInputOp op, Value dy, Value w,
                             RankedTensorType dxType, bool phaseShuffle,
                             bool channelsLast) {
  MLIRContext *ctx = b.getContext();
  auto dyType = cast<RankedTensorType>(dy.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type elementType = dyType.getElementType();
  ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding();
  int64_t groups = op.getGroups();
  int64_t co = wType.getDimSize(0), cig = wType.getDimSize(1),
          cog = co / groups;
  // Per axis and phase r: first tap, tap count, row offset, output rows.
  struct Phase {
    int64_t a0, taps, e, rows;
  };
  SmallVector<SmallVector<Phase>> phases(2);
  SmallVector<int64_t> low(2, 0), high(2, 0);
  for (int64_t ax = 0; ax < 2; ++ax) {
    int64_t s = stride[ax], p = padding[ax], k = wType.getDimSize(2 + ax);
    int64_t out = dxType.getDimSize(2 + ax), in = dyType.getDimSize(2 + ax);
    for (int64_t r = 0; r < s; ++r) {
      Phase ph;
      ph.a0 = (r + p) % s;
      ph.taps = ph.a0 < k ? llvm::divideCeil(k - ph.a0, s) : 0;
      ph.e = (r + p - ph.a0) / s;
      ph.rows = r < out ? llvm::divideCeil(out - r, s) : 0;
      if (ph.taps > 0 && ph.rows > 0) {
        low[ax] = std::max(low[ax], ph.taps - 1 - ph.e);
        high[ax] = std::max(high[ax], ph.rows - 1 + ph.e - (in - 1));
      }
      phases[ax].push_back(ph);
    }
  }
  Value dyp = padSpatial(b, loc, dy, low, high);
  auto dypType = cast<RankedTensorType>(dyp.getType());
  // [N, G*Cog, Hp, Wp] -> [N, G, Cog, Hp, Wp]; w -> [G, Cog, Cig, kH, kW].
  dyp = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({dypType.getDimSize(0), groups, cog,
                             dypType.getDimSize(2), dypType.getDimSize(3)},
                            elementType),
      dyp, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  Value wG = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get(
          {groups, cog, cig, wType.getDimSize(2), wType.getDimSize(3)},
          elementType),
      w, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});

  OpFoldResult batch = tensor::getMixedSize(b, loc, dy, 0);
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  auto idx = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  // Loops (n, g, c, u, v, o, t, t').
  AffineExpr n, g, c, u, v, o, t, t2;
  bindDims(ctx, n, g, c, u, v, o, t, t2);
  // init[n, g, c, u, v] += the taps of phase (ph, pw) (it has some).
  auto accumulatePhase = [&](const Phase &ph, const Phase &pw, Value init) {
    Value wph = tensor::ExtractSliceOp::create(
        b, loc,
        RankedTensorType::get({groups, cog, cig, ph.taps, pw.taps},
                              elementType),
        wG, ArrayRef<OpFoldResult>{zero, zero, zero, idx(ph.a0), idx(pw.a0)},
        ArrayRef<OpFoldResult>{idx(groups), idx(cog), idx(cig), idx(ph.taps),
                               idx(pw.taps)},
        ArrayRef<OpFoldResult>{one, one, one, idx(stride[0]), idx(stride[1])});
    AffineMap wMap = AffineMap::get(8, 0, {g, o, c, t, t2}, ctx);
    AffineMap dyMap = AffineMap::get(
        8, 0, {n, g, o, u + (low[0] + ph.e) - t, v + (low[1] + pw.e) - t2},
        ctx);
    AffineMap outMap = AffineMap::get(8, 0, {n, g, c, u, v}, ctx);
    return buildMultiplyAccumulate(b, loc, {wph, wMap}, {dyp, dyMap},
                                   {init, outMap});
  };

  // channels-last: init[n, g, u, v, c] += the taps of phase (ph, pw), a
  // contraction over (n, g, u, v, c, o, t, t') vectorized along c, with the
  // taps read as wT[g, o, a, b, c]. The caller transposes c back.
  channelsLast = channelsLast && prefersChannelsLast(cig);
  Value wT = channelsLast
                 ? swapTrailingDims(b, loc, wG, 2, 3) // [G,Cog,kH,kW,Cig]
                 : Value();
  auto accumulateChannelsLast = [&](const Phase &ph, const Phase &pw,
                                    Value init) {
    Value wph = tensor::ExtractSliceOp::create(
        b, loc,
        RankedTensorType::get({groups, cog, ph.taps, pw.taps, cig},
                              elementType),
        wT, ArrayRef<OpFoldResult>{zero, zero, idx(ph.a0), idx(pw.a0), zero},
        ArrayRef<OpFoldResult>{idx(groups), idx(cog), idx(ph.taps),
                               idx(pw.taps), idx(cig)},
        ArrayRef<OpFoldResult>{one, one, idx(stride[0]), idx(stride[1]), one});
    AffineExpr ln, lg, lu, lv, lc, lo, lt, lt2;
    bindDims(ctx, ln, lg, lu, lv, lc, lo, lt, lt2);
    AffineMap wMap = AffineMap::get(8, 0, {lg, lo, lt, lt2, lc}, ctx);
    AffineMap dyMap = AffineMap::get(
        8, 0,
        {ln, lg, lo, lu + (low[0] + ph.e) - lt, lv + (low[1] + pw.e) - lt2},
        ctx);
    AffineMap outMap = AffineMap::get(8, 0, {ln, lg, lu, lv, lc}, ctx);
    return buildMultiplyAccumulate(b, loc, {dyp, dyMap}, {wph, wMap},
                                   {init, outMap});
  };
  // The part of a phase, zeros where no tap reaches it: [N, G, Cig, rows,
  // cols] (channels-last: [N, G, rows, cols, Cig]) accumulated into `init`.
  auto phasePart = [&](const Phase &ph, const Phase &pw, Value init) {
    Value part = filled(b, loc, init, 0.0);
    if (ph.taps == 0 || pw.taps == 0)
      return part;
    return channelsLast ? accumulateChannelsLast(ph, pw, part)
                        : accumulatePhase(ph, pw, part);
  };

  // phase-shuffle: every phase has the same rows and columns (s divides
  // H and W). The phases are written, unit-stride along the vectorized
  // dim, into one phase-major buffer and interleaved into dx by one
  // transpose (a pixel shuffle): one pass over dx instead of one strided,
  // scalar copy per phase. The buffer is P[n, g, c, rh, rw, u, v], or
  // channels-last P[n, g, u, rh, v, rw, c] (dx channels-last: a phase
  // writes every s-th row and column of it, with its channel rows whole),
  // which the transpose of its [N, G, H*W, Cig] collapse turns into dx.
  bool sameSize = llvm::all_of(llvm::seq<int64_t>(0, 2), [&](int64_t ax) {
    return dxType.getDimSize(2 + ax) % stride[ax] == 0;
  });
  if (phaseShuffle && (stride[0] > 1 || stride[1] > 1) && sameSize) {
    int64_t rows = phases[0][0].rows, cols = phases[1][0].rows;
    SmallVector<OpFoldResult> packedSizes =
        channelsLast ? SmallVector<OpFoldResult>{batch, idx(groups), idx(rows),
                                                 idx(stride[0]), idx(cols),
                                                 idx(stride[1]), idx(cig)}
                     : SmallVector<OpFoldResult>{batch, idx(groups), idx(cig),
                                                 idx(stride[0]), idx(stride[1]),
                                                 idx(rows), idx(cols)};
    // The buffer's dims that hold the phase (rh, rw).
    int64_t rhDim = 3, rwDim = channelsLast ? 5 : 4;
    // Every phase's slice is zeroed and accumulated on its own (no fill of
    // the whole buffer first: the contraction's blocks zero their tiles).
    Value packed = tensor::EmptyOp::create(b, loc, packedSizes, elementType);
    // A phase's slice: the buffer without its (rh, rw) dims.
    auto packedType = cast<RankedTensorType>(packed.getType());
    SmallVector<int64_t> phaseShape(packedType.getShape());
    phaseShape.erase(phaseShape.begin() + rwDim);
    phaseShape.erase(phaseShape.begin() + rhDim);
    auto phaseType = packedType.clone(phaseShape);
    for (int64_t rh = 0; rh < stride[0]; ++rh) {
      for (int64_t rw = 0; rw < stride[1]; ++rw) {
        SmallVector<OpFoldResult> offsets(7, zero);
        offsets[rhDim] = idx(rh);
        offsets[rwDim] = idx(rw);
        SmallVector<OpFoldResult> sizes = packedSizes;
        sizes[rhDim] = sizes[rwDim] = one;
        SmallVector<OpFoldResult> strides(7, one);
        Value slice = tensor::ExtractSliceOp::create(b, loc, phaseType, packed,
                                                     offsets, sizes, strides);
        Value part = phasePart(phases[0][rh], phases[1][rw], slice);
        packed = tensor::InsertSliceOp::create(b, loc, part, packed, offsets,
                                               sizes, strides);
      }
    }
    // dx[n, g, c, u, rh, v, rw] = P[n, g, c, rh, rw, u, v]
    //                           (channels-last: P[n, g, u, rh, v, rw, c]).
    Value shuffled;
    if (channelsLast) {
      shuffled = swapTrailingDims(b, loc, packed, 2, 6);
    } else {
      Value shuffledInit = tensor::EmptyOp::create(
          b, loc,
          ArrayRef<OpFoldResult>{batch, idx(groups), idx(cig), idx(rows),
                                 idx(stride[0]), idx(cols), idx(stride[1])},
          elementType);
      shuffled =
          linalg::TransposeOp::create(b, loc, packed, shuffledInit,
                                      ArrayRef<int64_t>{0, 1, 2, 5, 3, 6, 4})
              .getResult()[0];
    }
    return tensor::CollapseShapeOp::create(
        b, loc, shuffled,
        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3, 4}, {5, 6}});
  }

  Value dx = tensor::EmptyOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{batch, idx(dxType.getDimSize(1)),
                             idx(dxType.getDimSize(2)),
                             idx(dxType.getDimSize(3))},
      elementType);
  for (int64_t rh = 0; rh < stride[0]; ++rh) {
    for (int64_t rw = 0; rw < stride[1]; ++rw) {
      const Phase &ph = phases[0][rh], &pw = phases[1][rw];
      if (ph.rows == 0 || pw.rows == 0)
        continue;
      SmallVector<OpFoldResult> partSizes = {batch, idx(groups), idx(cig),
                                             idx(ph.rows), idx(pw.rows)};
      if (channelsLast)
        std::rotate(partSizes.begin() + 2, partSizes.begin() + 3,
                    partSizes.end());
      Value part = phasePart(
          ph, pw, tensor::EmptyOp::create(b, loc, partSizes, elementType));
      if (channelsLast)
        part = swapTrailingDims(b, loc, part, 2, 4);
      part = tensor::CollapseShapeOp::create(
          b, loc, part,
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
      dx = tensor::InsertSliceOp::create(
          b, loc, part, dx,
          ArrayRef<OpFoldResult>{zero, zero, idx(rh), idx(rw)},
          ArrayRef<OpFoldResult>{batch, idx(dxType.getDimSize(1)), idx(ph.rows),
                                 idx(pw.rows)},
          ArrayRef<OpFoldResult>{one, one, idx(stride[0]), idx(stride[1])});
    }
  }
  return dx;
}

/// Fails unless every dynamic spatial dim of the result `result` (`name`) is
/// along an axis of stride 1, where the window formula can be inverted; with
/// a stride s > 1, s input sizes give the same output size.
static LogicalResult requireInvertibleSpatial(RewriterBase &rewriter,
                                              Operation *op, Value result,
                                              StringRef name,
                                              ArrayRef<int64_t> stride) {
  auto type = cast<ShapedType>(result.getType());
  for (int64_t ax = 0; ax < 2; ++ax)
    if (type.isDynamicDim(2 + ax) && stride[ax] != 1)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "requires a static dim " << 2 + ax << " of '" << name
             << "' when the stride along it is " << stride[ax]
             << " (several sizes give the same output size)";
      });
  return success();
}

/// Dim `d` of `result`: its static size, or else `expr` over `operands`.
static OpFoldResult resultSize(OpBuilder &b, Location loc, Value result,
                               int64_t d, AffineExpr expr,
                               ArrayRef<OpFoldResult> operands) {
  auto type = cast<ShapedType>(result.getType());
  if (!type.isDynamicDim(d))
    return b.getIndexAttr(type.getDimSize(d));
  return convSize(b, loc, expr, operands);
}

/// The general input gradient, any dim dynamic: one generic over
/// (n, g, c, h, v, o, a, b) on the group-split views of dx [N, G, Cig, H, W]
/// and w [G, Cog, Cig, kH, kW] that reads dy at the row
/// i = (h + p - a*d) / s (and the column alike) when that is exact and in
/// [0, Ho), and adds nothing otherwise. Sizes come from tensor.dim; the
/// reads are clamped in bounds (Ho, Wo >= 1: a window fits, by the
/// contract).
static Value generalInputGrad(OpBuilder &b, Location loc,
                              Conv2dBackwardInputOp op,
                              ArrayRef<OpFoldResult> dxSpatial) {
  MLIRContext *ctx = b.getContext();
  Value dy = op.getDy();
  Type elementType = cast<ShapedType>(dy.getType()).getElementType();
  ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding(),
                    dilation = op.getDilation();
  int64_t groups = op.getGroups();
  Value wG = splitGroups(b, loc, op.getW(), 0, groups); // [G, Cog, Cig, kH, kW]
  Value cog = getValueOrCreateConstantIndexOp(
      b, loc, tensor::getMixedSize(b, loc, wG, 1));
  SmallVector<Value> outRows = {
      getValueOrCreateConstantIndexOp(b, loc,
                                      tensor::getMixedSize(b, loc, dy, 2)),
      getValueOrCreateConstantIndexOp(b, loc,
                                      tensor::getMixedSize(b, loc, dy, 3))};
  Value init = filled(
      b, loc,
      tensor::EmptyOp::create(
          b, loc,
          ArrayRef<OpFoldResult>{
              tensor::getMixedSize(b, loc, dy, 0), b.getIndexAttr(groups),
              tensor::getMixedSize(b, loc, wG, 2), dxSpatial[0], dxSpatial[1]},
          elementType),
      0.0);
  // Loops (n, g, c, h, v, o, a, b).
  AffineExpr n, g, c, h, v, o, ka, kb;
  bindDims(ctx, n, g, c, h, v, o, ka, kb);
  AffineMap wMap = AffineMap::get(8, 0, {g, o, c, ka, kb}, ctx);
  AffineMap outMap = AffineMap::get(8, 0, {n, g, c, h, v}, ctx);
  Value dxG = buildGeneric(
      b, loc, {{wG, wMap}}, {{init, outMap}},
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        auto index = [&](unsigned dim) {
          return linalg::IndexOp::create(nb, nloc, dim).getResult();
        };
        auto cst = [&](int64_t value) {
          return arith::ConstantIndexOp::create(nb, nloc, value).getResult();
        };
        Value zero = cst(0);
        // The dy row (column) reached by output row h through tap a.
        Value valid;
        SmallVector<Value> at;
        for (int64_t ax = 0; ax < 2; ++ax) {
          Value shifted = arith::SubIOp::create(
              nb, nloc,
              arith::AddIOp::create(nb, nloc, index(3 + ax), cst(padding[ax])),
              arith::MulIOp::create(nb, nloc, index(6 + ax),
                                    cst(dilation[ax])));
          Value row =
              arith::DivSIOp::create(nb, nloc, shifted, cst(stride[ax]));
          Value ok = arith::AndIOp::create(
              nb, nloc,
              arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sge,
                                    shifted, zero),
              arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt, row,
                                    outRows[ax]));
          if (stride[ax] != 1)
            ok = arith::AndIOp::create(
                nb, nloc, ok,
                arith::CmpIOp::create(
                    nb, nloc, arith::CmpIPredicate::eq,
                    arith::RemSIOp::create(nb, nloc, shifted, cst(stride[ax])),
                    zero));
          valid = valid ? arith::AndIOp::create(nb, nloc, valid, ok).getResult()
                        : ok;
          at.push_back(row);
        }
        for (Value &i : at)
          i = arith::SelectOp::create(nb, nloc, valid, i, zero);
        Value channel = arith::AddIOp::create(
            nb, nloc, arith::MulIOp::create(nb, nloc, index(1), cog), index(5));
        Value read = tensor::ExtractOp::create(
            nb, nloc, dy, ValueRange{index(0), channel, at[0], at[1]});
        read = arith::SelectOp::create(nb, nloc, valid, read,
                                       floatConst(nb, nloc, elementType, 0.0));
        Value prod = arith::MulFOp::create(nb, nloc, args[0], read);
        return SmallVector<Value>{
            arith::AddFOp::create(nb, nloc, args[1], prod).getResult()};
      })[0];
  return tensor::CollapseShapeOp::create(
      b, loc, dxG, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

/// dx[n, g*Cig + c, h, v] = sum dy[n, g*Cog + o, i, j] * w[g*Cog + o, c, a, b]
/// over i*s - p + a*d = h, j*s - p + b*d = v, as the stride-1 convolution of
/// the zero-dilated, (d(k-1) - p)-padded dy with the flipped kernel.
static FailureOr<SmallVector<Value>>
decomposeConv2dBackwardInput(RewriterBase &rewriter, Conv2dBackwardInputOp op,
                             const DecompositionOptions &options) {
  Location loc = op.getLoc();
  // Any channel, spatial or kernel dim dynamic: the general form.
  if (!hasStaticConvDims({op.getDy(), op.getW(), op.getDx()}) ||
      cast<ShapedType>(op.getW().getType()).isDynamicDim(0)) {
    if (failed(requireInvertibleSpatial(rewriter, op, op.getDx(), "dx",
                                        op.getStride())))
      return failure();
    // A dynamic H is Ho + d(k - 1) - 2p (the window formula at s = 1).
    SmallVector<OpFoldResult> dxSpatial;
    AffineExpr ho = getAffineSymbolExpr(0, rewriter.getContext()),
               k = getAffineSymbolExpr(1, rewriter.getContext());
    for (int64_t ax = 0; ax < 2; ++ax)
      dxSpatial.push_back(resultSize(
          rewriter, loc, op.getDx(), 2 + ax,
          ho + (k - 1) * op.getDilation()[ax] - 2 * op.getPadding()[ax],
          {tensor::getMixedSize(rewriter, loc, op.getDy(), 2 + ax),
           tensor::getMixedSize(rewriter, loc, op.getW(), 2 + ax)}));
    return SmallVector<Value>{generalInputGrad(rewriter, loc, op, dxSpatial)};
  }

  Value dy = op.getDy(), w = op.getW();
  auto dyType = cast<RankedTensorType>(dy.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto dxType = cast<RankedTensorType>(op.getDx().getType());
  Type elementType = dyType.getElementType();
  ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding(),
                    dilation = op.getDilation();
  int64_t groups = op.getGroups();
  int64_t co = wType.getDimSize(0), cig = wType.getDimSize(1),
          cog = co / groups;
  SmallVector<int64_t> k = {wType.getDimSize(2), wType.getDimSize(3)};
  if (options.convDirect && dilation[0] == 1 && dilation[1] == 1)
    return SmallVector<Value>{directInputGrad(rewriter, loc, op, dy, w, dxType,
                                              options.convPhaseShuffle,
                                              options.convChannelsLast)};

  // Per spatial axis: dy row i lands at row pl + i*s of the zero tensor of
  // length L = H + d(k-1) (pl = d(k-1) - p); rows outside [0, L) only ever
  // met padding in the forward pass and are cropped.
  SmallVector<int64_t> length(2), first(2), count(2), offset(2);
  for (int64_t i = 0; i < 2; ++i) {
    int64_t span = dilation[i] * (k[i] - 1);
    int64_t pl = span - padding[i];
    length[i] = dxType.getDimSize(2 + i) + span;
    first[i] = pl >= 0 ? 0 : llvm::divideCeilSigned(-pl, stride[i]);
    int64_t end =
        std::min(dyType.getDimSize(2 + i),
                 llvm::divideFloorSigned(length[i] - 1 - pl, stride[i]) + 1);
    count[i] = std::max<int64_t>(end - first[i], 0);
    offset[i] = pl + first[i] * stride[i];
  }

  // dyz: dy dilated by the stride and padded, in one strided insert_slice.
  OpFoldResult batch = tensor::getMixedSize(rewriter, loc, dy, 0);
  OpFoldResult zeroIdx = rewriter.getIndexAttr(0),
               oneIdx = rewriter.getIndexAttr(1);
  Value dyz;
  bool cropped = first[0] != 0 || first[1] != 0 ||
                 count[0] != dyType.getDimSize(2) ||
                 count[1] != dyType.getDimSize(3);
  bool identity = !cropped && offset[0] == 0 && offset[1] == 0 &&
                  stride[0] == 1 && stride[1] == 1 && count[0] == length[0] &&
                  count[1] == length[1];
  if (identity) {
    dyz = dy;
  } else {
    Value zeros =
        filled(rewriter, loc,
               tensor::EmptyOp::create(
                   rewriter, loc,
                   ArrayRef<OpFoldResult>{batch, rewriter.getIndexAttr(co),
                                          rewriter.getIndexAttr(length[0]),
                                          rewriter.getIndexAttr(length[1])},
                   elementType),
               0.0);
    dyz = zeros;
    if (count[0] > 0 && count[1] > 0) {
      SmallVector<OpFoldResult> sizes = {batch, rewriter.getIndexAttr(co),
                                         rewriter.getIndexAttr(count[0]),
                                         rewriter.getIndexAttr(count[1])};
      Value src = dy;
      if (cropped)
        src = tensor::ExtractSliceOp::create(
            rewriter, loc, dy,
            {zeroIdx, zeroIdx, rewriter.getIndexAttr(first[0]),
             rewriter.getIndexAttr(first[1])},
            sizes, {oneIdx, oneIdx, oneIdx, oneIdx});
      dyz = tensor::InsertSliceOp::create(
          rewriter, loc, src, zeros,
          {zeroIdx, zeroIdx, rewriter.getIndexAttr(offset[0]),
           rewriter.getIndexAttr(offset[1])},
          sizes,
          {oneIdx, oneIdx, rewriter.getIndexAttr(stride[0]),
           rewriter.getIndexAttr(stride[1])});
    }
  }

  // wf[g, c, o, a, b] = w[g*Cog + o, c, kH-1-a, kW-1-b], then
  // [G, Cig, Cog, kH, kW] -> [Ci, Cog, kH, kW].
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr g, c, o, a, b;
  bindDims(ctx, g, c, o, a, b);
  AffineMap flipMap =
      AffineMap::get(5, 0, {g * cog + o, c, k[0] - 1 - a, k[1] - 1 - b}, ctx);
  auto wfType =
      RankedTensorType::get({groups, cig, cog, k[0], k[1]}, elementType);
  Value wfInit =
      tensor::EmptyOp::create(rewriter, loc, wfType.getShape(), elementType);
  Value wf = buildGeneric(rewriter, loc, {{w, flipMap}},
                          {{wfInit, AffineMap::getMultiDimIdentityMap(5, ctx)}},
                          [](OpBuilder &, Location, ValueRange args) {
                            return SmallVector<Value>{args[0]};
                          })[0];
  wf = tensor::CollapseShapeOp::create(
      rewriter, loc, wf,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});

  Value dx =
      buildGroupedConv2d(rewriter, loc, dyz, wf, groups, {1, 1}, dilation);
  return SmallVector<Value>{dx};
}

//===----------------------------------------------------------------------===//
// conv2d_backward_weight
//===----------------------------------------------------------------------===//

namespace {
/// The static sizes of a conv2d_backward_weight.
struct WeightGradShape {
  int64_t groups, ci, cig, co, cog, kh, kw, ho, wo;
  int64_t k() const { return cig * kh * kw; }
};
} // namespace

/// acc += dyT(dys) x im2col(xs) for one batch slice xs [n, Ci, H, W],
/// dys [n, Co, Ho, Wo]; acc is [Co, K] (groups == 1) or [G, Cog, K].
static Value accumulateWeightGrad(OpBuilder &b, Location loc,
                                  Conv2dBackwardWeightOp op,
                                  const WeightGradShape &s, Value xs, Value dys,
                                  Value acc) {
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<ShapedType>(xs.getType()).getElementType();
  ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
  Value xp = padSpatial(b, loc, xs, op.getPadding(), op.getPadding());
  OpFoldResult batch = tensor::getMixedSize(b, loc, xs, 0);

  // col[g, n, i, j, c, a, b] = xp[n, g*Cig + c, i*sH + a*dH, j*sW + b*dW]
  AffineExpr g, n, i, j, c, a, bb;
  bindDims(ctx, g, n, i, j, c, a, bb);
  AffineMap im2colMap =
      AffineMap::get(7, 0,
                     {n, g * s.cig + c, i * stride[0] + a * dilation[0],
                      j * stride[1] + bb * dilation[1]},
                     ctx);
  SmallVector<OpFoldResult> colSizes = {
      b.getIndexAttr(s.groups), batch,
      b.getIndexAttr(s.ho),     b.getIndexAttr(s.wo),
      b.getIndexAttr(s.cig),    b.getIndexAttr(s.kh),
      b.getIndexAttr(s.kw)};
  Value colInit = tensor::EmptyOp::create(b, loc, colSizes, elementType);
  Value col =
      buildGeneric(b, loc, {{xp, im2colMap}},
                   {{colInit, AffineMap::getMultiDimIdentityMap(7, ctx)}},
                   [](OpBuilder &, Location, ValueRange args) {
                     return SmallVector<Value>{args[0]};
                   })[0];

  // dyT[co, (n, i, j)] = dy[n, co, i, j]: a real transpose, then collapse.
  Value dyTInit = tensor::EmptyOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{b.getIndexAttr(s.co), batch, b.getIndexAttr(s.ho),
                             b.getIndexAttr(s.wo)},
      elementType);
  Value dyT = linalg::TransposeOp::create(b, loc, dys, dyTInit,
                                          ArrayRef<int64_t>{1, 0, 2, 3})
                  .getResult()[0];
  dyT = tensor::CollapseShapeOp::create(
      b, loc, dyT, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});

  if (s.groups == 1) {
    // [1, n, Ho, Wo, Ci, kH, kW] -> [n*Ho*Wo, Ci*kH*kW]; acc += dyT x col.
    col = tensor::CollapseShapeOp::create(
        b, loc, col,
        SmallVector<ReassociationIndices>{{0, 1, 2, 3}, {4, 5, 6}});
    return linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                    ValueRange{dyT, col}, ValueRange{acc})
        .getResult(0);
  }
  // [G, n*Ho*Wo, K] and [Co, n*Ho*Wo] -> [G, Cog, n*Ho*Wo]; per-group matmul.
  col = tensor::CollapseShapeOp::create(
      b, loc, col,
      SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4, 5, 6}});
  auto dyTType = cast<RankedTensorType>(dyT.getType());
  dyT = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({s.groups, s.cog, dyTType.getDimSize(1)},
                            elementType),
      dyT, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  return linalg::BatchMatmulOp::create(b, loc, TypeRange{acc.getType()},
                                       ValueRange{dyT, col}, ValueRange{acc})
      .getResult(0);
}

/// conv-direct: the weight gradient as one contraction with the im2col
/// folded into its indexing (implicit GEMM), no [N*Ho*Wo, Ci*kH*kW] buffer:
///
///   dyT[n, i, j, co]        = dy[n, co, i, j]            (channels last)
///   dwT[g, a, b, c, o]     += xp[n, g*Cig + c, i*s + a*d, j*s + b*d]
///                             * dyT[n, i, j, g*Cog + o]  (sum over n, i, j)
///   dw[g*Cog + o, c, a, b]  = dwT[g, a, b, c, o]
///
/// rlx-optimize-contractions turns the middle one into a micro-kernel that
/// keeps a [c, o] tile in registers over the whole (n, i, j) reduction and
/// loads rows of dyT along o.
static Value directWeightGrad(OpBuilder &b, Location loc,
                              Conv2dBackwardWeightOp op,
                              const WeightGradShape &s, Value x, Value dy) {
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<ShapedType>(x.getType()).getElementType();
  ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
  Value xp = padSpatial(b, loc, x, op.getPadding(), op.getPadding());
  OpFoldResult batch = tensor::getMixedSize(b, loc, dy, 0);
  Value dyTInit = tensor::EmptyOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{batch, b.getIndexAttr(s.ho), b.getIndexAttr(s.wo),
                             b.getIndexAttr(s.co)},
      elementType);
  Value dyT = linalg::TransposeOp::create(b, loc, dy, dyTInit,
                                          ArrayRef<int64_t>{0, 2, 3, 1})
                  .getResult()[0];
  // Loops (g, a, b, c, o, n, i, j).
  AffineExpr g, ka, kb, c, o, n, i, j;
  bindDims(ctx, g, ka, kb, c, o, n, i, j);
  AffineMap xMap =
      AffineMap::get(8, 0,
                     {n, g * s.cig + c, i * stride[0] + ka * dilation[0],
                      j * stride[1] + kb * dilation[1]},
                     ctx);
  AffineMap dyMap = AffineMap::get(8, 0, {n, i, j, g * s.cog + o}, ctx);
  AffineMap outMap = AffineMap::get(8, 0, {g, ka, kb, c, o}, ctx);
  auto dwTType =
      RankedTensorType::get({s.groups, s.kh, s.kw, s.cig, s.cog}, elementType);
  Value acc = filled(
      b, loc, tensor::EmptyOp::create(b, loc, dwTType.getShape(), elementType),
      0.0);
  Value dwT =
      buildMultiplyAccumulate(b, loc, {xp, xMap}, {dyT, dyMap}, {acc, outMap});
  // [G, kH, kW, Cig, Cog] -> [G, Cog, Cig, kH, kW] -> [Co, Cig, kH, kW].
  Value dwInit = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{s.groups, s.cog, s.cig, s.kh, s.kw},
      elementType);
  Value dw = linalg::TransposeOp::create(b, loc, dwT, dwInit,
                                         ArrayRef<int64_t>{0, 4, 3, 1, 2})
                 .getResult()[0];
  return tensor::CollapseShapeOp::create(
      b, loc, dw, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
}

/// conv-direct, one output channel per group: the weight gradient of a conv
/// with one output channel per group (Co = G, depthwise) and stride 1 along W.
/// The implicit GEMM would vectorize along its single output channel; instead
/// each output column j keeps its own partial sums, vectorized along the rows
/// of x and dy, and a short sum over j follows:
///
///   part[g, c, a, b, j] += xp[n, g*Cig + c, i*s + a*d, j + b*d]
///                          * dy[n, g, i, j]          (sum over n, i)
///   dw[g, c, a, b]       = sum_j part[g, c, a, b, j]
///
/// rlx-optimize-contractions turns the first into a micro-kernel whose
/// rows are the kW taps b and whose both operands are loaded as vectors.
static Value depthwiseWeightGrad(OpBuilder &b, Location loc,
                                 Conv2dBackwardWeightOp op,
                                 const WeightGradShape &s, Value x, Value dy) {
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<ShapedType>(x.getType()).getElementType();
  ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
  Value xp = padSpatial(b, loc, x, op.getPadding(), op.getPadding());
  // Loops (g, c, a, b, j, n, i).
  AffineExpr g, c, ka, kb, j, n, i;
  bindDims(ctx, g, c, ka, kb, j, n, i);
  AffineMap xMap =
      AffineMap::get(7, 0,
                     {n, g * s.cig + c, i * stride[0] + ka * dilation[0],
                      j + kb * dilation[1]},
                     ctx);
  AffineMap dyMap = AffineMap::get(7, 0, {n, g, i, j}, ctx);
  AffineMap partMap = AffineMap::get(7, 0, {g, c, ka, kb, j}, ctx);
  Value partInit =
      filled(b, loc,
             tensor::EmptyOp::create(
                 b, loc, ArrayRef<int64_t>{s.groups, s.cig, s.kh, s.kw, s.wo},
                 elementType),
             0.0);
  Value part = buildMultiplyAccumulate(b, loc, {xp, xMap}, {dy, dyMap},
                                       {partInit, partMap});
  return buildSum(b, loc, part, {4});
}

/// The general weight gradient, any dim of x and dy dynamic: one
/// contraction over (g, o, c, a, b, n, i, j) on the group-split views
///
///   dwG[g, o, c, a, b] += xpG[n, g, c, i*s + a*d, j*s + b*d] * dyG[n, g, o, i,
///   j]
///
/// then collapsed to [Co, Cig, kH, kW]. A dynamic kernel dim of dw is
/// Hp - Ho + 1 (stride and dilation 1 along it).
static Value generalWeightGrad(OpBuilder &b, Location loc,
                               Conv2dBackwardWeightOp op) {
  MLIRContext *ctx = b.getContext();
  Value dy = op.getDy();
  Type elementType = cast<ShapedType>(dy.getType()).getElementType();
  ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
  int64_t groups = op.getGroups();
  Value xp = padSpatial(b, loc, op.getX(), op.getPadding(), op.getPadding());
  Value xG = splitGroups(b, loc, xp, 1, groups);  // [N, G, Cig, Hp, Wp]
  Value dyG = splitGroups(b, loc, dy, 1, groups); // [N, G, Cog, Ho, Wo]
  AffineExpr s0 = getAffineSymbolExpr(0, ctx), s1 = getAffineSymbolExpr(1, ctx);
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(groups),
                                     tensor::getMixedSize(b, loc, dyG, 2),
                                     tensor::getMixedSize(b, loc, xG, 2)};
  for (int64_t ax = 0; ax < 2; ++ax)
    sizes.push_back(resultSize(b, loc, op.getDw(), 2 + ax, s0 - s1 + 1,
                               {tensor::getMixedSize(b, loc, xp, 2 + ax),
                                tensor::getMixedSize(b, loc, dy, 2 + ax)}));
  // Loops (g, o, c, a, b, n, i, j).
  AffineExpr g, o, c, ka, kb, n, i, j;
  bindDims(ctx, g, o, c, ka, kb, n, i, j);
  AffineMap xMap = AffineMap::get(8, 0,
                                  {n, g, c, i * stride[0] + ka * dilation[0],
                                   j * stride[1] + kb * dilation[1]},
                                  ctx);
  AffineMap dyMap = AffineMap::get(8, 0, {n, g, o, i, j}, ctx);
  AffineMap outMap = AffineMap::get(8, 0, {g, o, c, ka, kb}, ctx);
  Value init =
      filled(b, loc, tensor::EmptyOp::create(b, loc, sizes, elementType), 0.0);
  Value dwG =
      buildMultiplyAccumulate(b, loc, {xG, xMap}, {dyG, dyMap}, {init, outMap});
  return tensor::CollapseShapeOp::create(
      b, loc, dwG, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
}

/// dw[co, c, a, b] = sum_{n,i,j} dy[n, co, i, j]
///                   * xp[n, g(co)*Cig + c, i*s + a*d, j*s + b*d]
/// as an implicit GEMM (conv-direct) or as im2col + matmul, optionally tiled
/// over the batch.
static FailureOr<SmallVector<Value>>
decomposeConv2dBackwardWeight(RewriterBase &rewriter, Conv2dBackwardWeightOp op,
                              const DecompositionOptions &options) {
  auto dwType = cast<RankedTensorType>(op.getDw().getType());
  Location loc = op.getLoc();
  // Any channel or spatial dim dynamic: the general form. A dynamic kernel
  // dim of dw follows from x and dy only with stride and dilation 1.
  if (!hasStaticConvDims({op.getX(), op.getDy(), op.getDw()}) ||
      dwType.isDynamicDim(0)) {
    for (int64_t ax = 0; ax < 2; ++ax)
      if (dwType.isDynamicDim(2 + ax) &&
          (op.getStride()[ax] != 1 || op.getDilation()[ax] != 1))
        return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
          diag << "requires a static dim " << 2 + ax
               << " of 'dw' (the kernel size) unless the stride and dilation "
                  "along it are 1 (several kernel sizes give the same output "
                  "size)";
        });
    return SmallVector<Value>{generalWeightGrad(rewriter, loc, op)};
  }

  Value x = op.getX(), dy = op.getDy();
  auto xType = cast<RankedTensorType>(x.getType());
  auto dyType = cast<RankedTensorType>(dy.getType());
  Type elementType = xType.getElementType();

  // One batch size for both operands: a static one wins (tensor.cast), so the
  // transpose and the matmul see consistent shapes.
  int64_t batch =
      xType.isDynamicDim(0) ? dyType.getDimSize(0) : xType.getDimSize(0);
  auto withBatch = [&](Value v, RankedTensorType &type) -> Value {
    if (type.getDimSize(0) == batch)
      return v;
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = batch;
    type = type.clone(shape);
    return tensor::CastOp::create(rewriter, loc, type, v).getResult();
  };
  x = withBatch(x, xType);
  dy = withBatch(dy, dyType);
  WeightGradShape s;
  s.groups = op.getGroups();
  s.ci = xType.getDimSize(1);
  s.cig = s.ci / s.groups;
  s.co = dyType.getDimSize(1);
  s.cog = s.co / s.groups;
  s.kh = dwType.getDimSize(2);
  s.kw = dwType.getDimSize(3);
  s.ho = dyType.getDimSize(2);
  s.wo = dyType.getDimSize(3);

  if (options.convDirect && s.cog == 1 && op.getStride()[1] == 1 && s.wo > 0)
    return SmallVector<Value>{depthwiseWeightGrad(rewriter, loc, op, s, x, dy)};
  if (options.convDirect)
    return SmallVector<Value>{directWeightGrad(rewriter, loc, op, s, x, dy)};

  // The accumulator: [Co, K], or [G, Cog, K] for the batched matmul.
  SmallVector<int64_t> accShape = {s.co, s.k()};
  if (s.groups > 1)
    accShape = {s.groups, s.cog, s.k()};
  Value acc = filled(
      rewriter, loc,
      tensor::EmptyOp::create(rewriter, loc, accShape, elementType), 0.0);

  // Tile the batch when the whole im2col buffer would exceed the cap. An
  // empty per-sample buffer (a zero-sized dim) never needs tiling; products
  // that overflow int64_t saturate (and so exceed any cap).
  std::optional<int64_t> checkedPerSample = 1;
  for (int64_t f : {s.ho, s.wo, s.ci, s.kh, s.kw})
    if (checkedPerSample)
      checkedPerSample = llvm::checkedMul(*checkedPerSample, f);
  int64_t perSample =
      checkedPerSample.value_or(std::numeric_limits<int64_t>::max());
  int64_t cap = options.im2colMaxElements;
  bool tile =
      cap > 0 && perSample > 0 &&
      (ShapedType::isDynamic(batch) || (batch > 0 && perSample > cap / batch));
  if (!tile) {
    acc = accumulateWeightGrad(rewriter, loc, op, s, x, dy, acc);
  } else {
    int64_t tileSize = std::max<int64_t>(1, cap / perSample);
    // Static batch: the largest divisor of N that fits keeps tiles static.
    if (!ShapedType::isDynamic(batch))
      while (batch % tileSize != 0)
        --tileSize;
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ub = tensor::DimOp::create(rewriter, loc, x, 0);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, tileSize);
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, ValueRange{acc},
        [&](OpBuilder &b, Location nloc, Value n0, ValueRange iterArgs) {
          // Tile size: min(T, N - n0), static when T divides a static N.
          OpFoldResult size = b.getIndexAttr(tileSize);
          if (ShapedType::isDynamic(batch))
            size = arith::MinSIOp::create(
                       b, nloc, step, arith::SubIOp::create(b, nloc, ub, n0))
                       .getResult();
          auto slice = [&](Value v) -> Value {
            auto type = cast<RankedTensorType>(v.getType());
            SmallVector<OpFoldResult> offsets = {
                n0, b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(0)};
            SmallVector<OpFoldResult> sizes = {
                size, b.getIndexAttr(type.getDimSize(1)),
                b.getIndexAttr(type.getDimSize(2)),
                b.getIndexAttr(type.getDimSize(3))};
            SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
            return tensor::ExtractSliceOp::create(b, nloc, v, offsets, sizes,
                                                  strides);
          };
          Value next = accumulateWeightGrad(b, nloc, op, s, slice(x), slice(dy),
                                            iterArgs[0]);
          scf::YieldOp::create(b, nloc, next);
        });
    acc = loop.getResult(0);
  }

  // [G, Cog, K] -> [Co, K] -> [Co, Cig, kH, kW].
  if (s.groups > 1)
    acc = tensor::CollapseShapeOp::create(
        rewriter, loc, acc, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  Value dw = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({s.co, s.cig, s.kh, s.kw}, elementType), acc,
      SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
  return SmallVector<Value>{dw};
}

/// db[co] = sum over n, i, j of dy[n, co, i, j]: one reduction generic (any
/// dim dynamic).
static FailureOr<SmallVector<Value>>
decomposeConv2dBackwardBias(RewriterBase &rewriter, Conv2dBackwardBiasOp op,
                            const DecompositionOptions &) {
  return SmallVector<Value>{
      buildSum(rewriter, op.getLoc(), op.getDy(), {0, 2, 3})};
}

using ConvDecompositions = DecompositionList<
    Decomposition<Conv2dBackwardInputOp, decomposeConv2dBackwardInput>,
    Decomposition<Conv2dBackwardWeightOp, decomposeConv2dBackwardWeight>,
    Decomposition<Conv2dBackwardBiasOp, decomposeConv2dBackwardBias>>;

void mlir::rlx::populateConvDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  ConvDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachConvDecompositionModels(MLIRContext *ctx) {
  ConvDecompositions::attachModels(ctx);
}
