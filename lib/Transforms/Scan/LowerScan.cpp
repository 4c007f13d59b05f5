//===- LowerScan.cpp - Scan forward ops to linalg --------------===//
//
// rlx.scan becomes an scf.for over the steps with the carry (and the
// trajectory) as iter_args; the body region is cloned once into the loop, so
// the IR does not grow with the length:
//
//   c = init
//   for t in [0, L): c = body(c, xs_0[t], ...); traj[t] = c
//
// With 0 < K < L checkpoints the loop is split per saved row k:
//
//   for k in [0, K): (for t in [ceil(kL/K), ceil((k+1)L/K)): c = body(...));
//                    traj[k] = c
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

/// One application of the body at step `t` (index value).
static Value applyBody(OpBuilder &b, Location loc, ScanOp op, Value carry,
                       Value t) {
  return cloneScanStep(b, loc, op.getBody(), carry, op.getXs(), t).front();
}

/// c = body(c, xs[t]) for t in [lb, ub); returns the last carry.
static Value buildStepLoop(OpBuilder &b, Location loc, ScanOp op, Value lb,
                           Value ub, Value carry) {
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, arith::ConstantIndexOp::create(b, loc, 1),
      ValueRange{carry},
      [&](OpBuilder &nb, Location l, Value t, ValueRange iter) {
        Value next = applyBody(nb, l, op, iter[0], t);
        scf::YieldOp::create(nb, l, yieldInPlace(nb, l, next, iter[0]));
      });
  return loop.getResult(0);
}

static FailureOr<SmallVector<Value>>
lowerScan(RewriterBase &rewriter, ScanOp op, const LoweringOptions &) {
  Location loc = op.getLoc();
  int64_t length = op.getLength(), k = op.getNumCheckpoints();
  Value init = op.getInit();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0),
        one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value len = arith::ConstantIndexOp::create(rewriter, loc, length);

  // Final carry only.
  if (!op.getSaveTrajectory())
    return SmallVector<Value>{
        buildStepLoop(rewriter, loc, op, zero, len, init)};

  int64_t rows = scanTrajectoryRows(length, k);
  Value traj = emptyStacked(rewriter, loc, rows, init);

  // Every carry saved: traj[t] = c after step t.
  if (rows == length) {
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, len, one, ValueRange{init, traj},
        [&](OpBuilder &b, Location l, Value t, ValueRange iter) {
          Value next =
              yieldInPlace(b, l, applyBody(b, l, op, iter[0], t), iter[0]);
          scf::YieldOp::create(
              b, l, ValueRange{next, insertRow(b, l, next, iter[1], t)});
        });
    return SmallVector<Value>(loop.getResults());
  }

  // Checkpoints: segment r covers steps [ceil(rL/K), ceil((r+1)L/K)) and
  // ends with traj[r] = c.
  auto loop = scf::ForOp::create(
      rewriter, loc, zero, arith::ConstantIndexOp::create(rewriter, loc, rows),
      one, ValueRange{init, traj},
      [&](OpBuilder &b, Location l, Value r, ValueRange iter) {
        Value lb = buildSegmentBegin(b, l, r, length, k);
        Value ub = buildSegmentBegin(b, l, arith::AddIOp::create(b, l, r, one),
                                     length, k);
        Value c = buildStepLoop(b, l, op, lb, ub, iter[0]);
        scf::YieldOp::create(b, l,
                             ValueRange{c, insertRow(b, l, c, iter[1], r)});
      });
  return SmallVector<Value>(loop.getResults());
}

void mlir::rlx::populateScanLoweringPatterns(RewritePatternSet &patterns,
                                             const LoweringOptions &options) {
  addLoweringPatterns<Lowering<ScanOp, lowerScan>>(patterns, options);
}
