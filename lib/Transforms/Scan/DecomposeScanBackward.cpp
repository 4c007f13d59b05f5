//===- DecomposeScanBackward.cpp - Scan gradients --------------===//
//
// rlx.scan_backward and rlx.scan_backward_xs walk the steps in reverse,
// cloning the user's `body_vjp` region once per step:
//
//   dcarry = 0
//   for t = L-1 .. 0:
//     d_out = dcarry + upstream[t]          (upstream[L-1] alone at t = L-1)
//     (dcarry, dx_0, ..., dx_{n-1}) = body_vjp(c_{t-1}, xs_0[t], ..., d_out)
//     dxs[t] = dx_{xs_idx}                  (scan_backward_xs)
//   dinit = dcarry                          (scan_backward)
//
// The carries c_{t-1} entering each step come segment by segment: segment j
// (R trajectory rows, steps [ceil(jL/R), ceil((j+1)L/R))) starts from
// trajectory row j-1 (init for j = 0); with 0 < K < L its other carries are
// recomputed by cloning `forward_body` from that row, once per segment.
//
// Up to DecompositionOptions::scanUnrollMaxLength steps everything is
// unrolled (L clones of body_vjp, L - R of forward_body, static slice
// offsets). Longer scans use an scf.for over the steps (or over the
// segments, with an inner recompute loop filling a [ceil(L/K), *carry]
// cache and an inner reverse loop); that IR does not depend on L.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"
#include "Scan/ScanUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// Builds the pieces of one scan gradient: per-step region clones and the
/// entry carry of a segment. `xsIdx` is set for scan_backward_xs.
template <typename OpTy> class ScanGradientBuilder {
public:
  ScanGradientBuilder(OpTy op, std::optional<int64_t> xsIdx)
      : op(op), xsIdx(xsIdx), carryType(op.getInit().getType()) {}

  /// c_t = forward_body(c_{t-1}, xs[t]).
  Value forwardStep(OpBuilder &b, Location loc, Value carry, OpFoldResult t) {
    return cloneScanStep(b, loc, op.getForwardBody(), carry, op.getXs(), t)
        .front();
  }

  /// One reverse step at t from the carry entering it: d_out = dcarry +
  /// upstream[t] (no add when `dcarry` is null, i.e. t = L-1 unrolled);
  /// returns the new dcarry and `dxs` with row t written (scan_backward_xs).
  std::pair<Value, Value> vjpStep(OpBuilder &b, Location loc, OpFoldResult t,
                                  Value carry, Value dcarry, Value dxs) {
    Value dOut = extractRow(b, loc, op.getUpstream(), t, carryType);
    if (dcarry)
      dOut = buildElementwise(
          b, loc, {dcarry, dOut},
          [](OpBuilder &nb, Location l, ValueRange a) -> Value {
            return arith::AddFOp::create(nb, l, a[0], a[1]);
          });
    SmallVector<Value> grads =
        cloneScanStep(b, loc, op.getBodyVjp(), carry, op.getXs(), t, dOut);
    if (xsIdx)
      dxs = insertRow(b, loc, grads[1 + *xsIdx], dxs, t);
    return {grads.front(), dxs};
  }

  /// scf.for over t = hi-1 .. lo (index values) running vjpStep with the
  /// carry `carryAt(t)` and (dcarry, dxs) as iter_args; returns their final
  /// values (dxs null for scan_backward).
  std::pair<Value, Value>
  reverseLoop(OpBuilder &b, Location loc, Value lo, Value hi, Value dcarry,
              Value dxs,
              function_ref<Value(OpBuilder &, Location, Value)> carryAt) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    SmallVector<Value> iterArgs{dcarry};
    if (dxs)
      iterArgs.push_back(dxs);
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::SubIOp::create(b, loc, hi, lo), one, iterArgs,
        [&](OpBuilder &nb, Location l, Value i, ValueRange it) {
          Value t = arith::SubIOp::create(
              nb, l, arith::SubIOp::create(nb, l, hi, one), i);
          auto [dc, dx] = vjpStep(nb, l, t, carryAt(nb, l, t), it[0],
                                  dxs ? it[1] : Value());
          SmallVector<Value> yields{yieldInPlace(nb, l, dc, it[0])};
          if (dx)
            yields.push_back(dx);
          scf::YieldOp::create(nb, l, yields);
        });
    return {loop.getResult(0), dxs ? loop.getResult(1) : Value()};
  }

  /// The carry entering segment j (index value): init for j = 0, else
  /// trajectory row j-1.
  Value segmentEntry(OpBuilder &b, Location loc, Value j) {
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j,
                              arith::ConstantIndexOp::create(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{carryType}, isFirst,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, op.getInit());
    b.setInsertionPointToStart(ifOp.elseBlock());
    Value prev = arith::SubIOp::create(
        b, loc, j, arith::ConstantIndexOp::create(b, loc, 1));
    scf::YieldOp::create(
        b, loc, extractRow(b, loc, op.getTrajectory(), prev, carryType));
    return ifOp.getResult(0);
  }

  OpTy op;
  std::optional<int64_t> xsIdx;
  Type carryType;
};
} // namespace

/// Straight-line form: segments R-1..0, each recomputed from its entry
/// carry, then its steps in reverse; every offset is a constant.
template <typename OpTy>
static std::pair<Value, Value>
buildUnrolled(RewriterBase &rewriter, ScanGradientBuilder<OpTy> &g, Value dxs) {
  OpTy op = g.op;
  Location loc = op.getLoc();
  int64_t length = op.getLength(), k = op.getNumCheckpoints();
  Value dcarry;
  for (int64_t j = scanTrajectoryRows(length, k) - 1; j >= 0; --j) {
    int64_t lo = scanSegmentBegin(j, length, k);
    int64_t hi = scanSegmentBegin(j + 1, length, k);
    // carries[s - lo] enters step s.
    SmallVector<Value> carries{
        j == 0 ? op.getInit()
               : extractRow(rewriter, loc, op.getTrajectory(),
                            rewriter.getIndexAttr(j - 1), g.carryType)};
    for (int64_t s = lo; s + 1 < hi; ++s)
      carries.push_back(g.forwardStep(rewriter, loc, carries.back(),
                                      rewriter.getIndexAttr(s)));
    for (int64_t t = hi - 1; t >= lo; --t)
      std::tie(dcarry, dxs) = g.vjpStep(rewriter, loc, rewriter.getIndexAttr(t),
                                        carries[t - lo], dcarry, dxs);
  }
  return {dcarry, dxs};
}

/// Loop form without recompute (every carry saved): one scf.for over
/// t = L-1..0 whose carry is init or trajectory[t-1].
template <typename OpTy>
static std::pair<Value, Value> buildStepLoop(RewriterBase &rewriter,
                                             ScanGradientBuilder<OpTy> &g,
                                             Value dcarry, Value dxs) {
  Location loc = g.op.getLoc();
  return g.reverseLoop(
      rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0),
      arith::ConstantIndexOp::create(rewriter, loc, g.op.getLength()), dcarry,
      dxs, [&](OpBuilder &b, Location l, Value t) {
        return g.segmentEntry(b, l, t);
      });
}

/// Loop form with checkpoints: for j = K-1..0, refill a [ceil(L/K), *carry]
/// cache from the segment's entry carry with forward_body, then walk the
/// segment's steps in reverse reading carries from the cache.
template <typename OpTy>
static std::pair<Value, Value> buildSegmentLoop(RewriterBase &rewriter,
                                                ScanGradientBuilder<OpTy> &g,
                                                Value dcarry, Value dxs) {
  OpTy op = g.op;
  Location loc = op.getLoc();
  int64_t length = op.getLength(), k = op.getNumCheckpoints();
  int64_t rows = scanTrajectoryRows(length, k);
  Value cache =
      emptyStacked(rewriter, loc, scanSegmentBegin(1, length, k), op.getInit());
  SmallVector<Value> iterArgs{dcarry, cache};
  if (dxs)
    iterArgs.push_back(dxs);
  auto loop = scf::ForOp::create(
      rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0),
      arith::ConstantIndexOp::create(rewriter, loc, rows),
      arith::ConstantIndexOp::create(rewriter, loc, 1), iterArgs,
      [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
        Value one = arith::ConstantIndexOp::create(b, l, 1);
        Value j = arith::SubIOp::create(
            b, l, arith::ConstantIndexOp::create(b, l, rows - 1), i);
        Value lo = buildSegmentBegin(b, l, j, length, k);
        Value hi = buildSegmentBegin(b, l, arith::AddIOp::create(b, l, j, one),
                                     length, k);
        Value entry = g.segmentEntry(b, l, j);
        Value filled = insertRow(b, l, entry, iter[1], b.getIndexAttr(0));
        // cache[s - lo + 1] = forward_body(cache[s - lo], xs[s]).
        auto recompute = scf::ForOp::create(
            b, l, lo, arith::SubIOp::create(b, l, hi, one), one,
            ValueRange{entry, filled},
            [&](OpBuilder &rb, Location rl, Value s, ValueRange it) {
              Value next =
                  yieldInPlace(rb, rl, g.forwardStep(rb, rl, it[0], s), it[0]);
              Value row = arith::AddIOp::create(
                  rb, rl, arith::SubIOp::create(rb, rl, s, lo), one);
              scf::YieldOp::create(
                  rb, rl,
                  ValueRange{next, insertRow(rb, rl, next, it[1], row)});
            });
        Value segCache = recompute.getResult(1);
        // t = hi-1 .. lo, carry entering t = cache[t - lo].
        auto [dc, dx] = g.reverseLoop(
            b, l, lo, hi, iter[0], dxs ? iter[2] : Value(),
            [&](OpBuilder &rb, Location rl, Value t) {
              Value row = arith::SubIOp::create(rb, rl, t, lo);
              return extractRow(rb, rl, segCache, row, g.carryType);
            });
        SmallVector<Value> yields{dc, segCache};
        if (dx)
          yields.push_back(dx);
        scf::YieldOp::create(b, l, yields);
      });
  return {loop.getResult(0), dxs ? loop.getResult(2) : Value()};
}

/// Both gradients: unrolled up to scanUnrollMaxLength steps, else a loop.
/// Returns dinit, or dxs[xs_idx] when `xsIdx` is set.
template <typename OpTy>
static FailureOr<SmallVector<Value>>
decomposeScanGradient(RewriterBase &rewriter, OpTy op,
                      const DecompositionOptions &options,
                      std::optional<int64_t> xsIdx) {
  Location loc = op.getLoc();
  int64_t length = op.getLength(), k = op.getNumCheckpoints();
  ScanGradientBuilder<OpTy> g(op, xsIdx);
  Value dxs = xsIdx ? emptyLike(rewriter, loc, op.getXs()[*xsIdx]) : Value();

  std::pair<Value, Value> grads;
  if (length <= options.scanUnrollMaxLength) {
    grads = buildUnrolled(rewriter, g, dxs);
  } else {
    Value zero = filledLike(rewriter, loc, op.getInit(), 0.0);
    grads = scanTrajectoryRows(length, k) == length
                ? buildStepLoop(rewriter, g, zero, dxs)
                : buildSegmentLoop(rewriter, g, zero, dxs);
  }
  return SmallVector<Value>{xsIdx ? grads.second : grads.first};
}

/// dinit: the dcarry left after step 0.
static FailureOr<SmallVector<Value>>
decomposeScanBackward(RewriterBase &rewriter, ScanBackwardOp op,
                      const DecompositionOptions &options) {
  return decomposeScanGradient(rewriter, op, options, std::nullopt);
}

/// dxs[t] = the dx_{xs_idx} that body_vjp yields at step t.
static FailureOr<SmallVector<Value>>
decomposeScanBackwardXs(RewriterBase &rewriter, ScanBackwardXsOp op,
                        const DecompositionOptions &options) {
  return decomposeScanGradient(rewriter, op, options,
                               static_cast<int64_t>(op.getXsIdx()));
}

using ScanDecompositions =
    DecompositionList<Decomposition<ScanBackwardOp, decomposeScanBackward>,
                      Decomposition<ScanBackwardXsOp, decomposeScanBackwardXs>>;

void mlir::rlx::populateScanDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  ScanDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachScanDecompositionModels(MLIRContext *ctx) {
  ScanDecompositions::attachModels(ctx);
}
