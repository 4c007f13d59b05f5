//===- LoopOrder.cpp - the rlx-loop-order pass ----------------------------===//
//
// convert-linalg-to-loops emits loops in iterator order, and LLVM only
// vectorises the innermost loop well when its accesses are contiguous. A
// named matmul iterates (m, n, k): the inner loop walks a column of B. This
// pass reorders each generic so that its innermost loop is the dimension that
// most operands index in their last (unit-stride) position.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXLOOPORDER
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// The first loop dimension in `expr` (left operand first): for `d3 * s + d6`
/// that is d3, the output position a convolution input row advances with.
static std::optional<unsigned> firstDim(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition();
  if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr)) {
    if (std::optional<unsigned> d = firstDim(bin.getLHS()))
      return d;
    return firstDim(bin.getRHS());
  }
  return std::nullopt;
}

/// The permutation that moves the best unit-stride dimension innermost, or
/// an empty vector when the current order is already as good.
static SmallVector<unsigned> innermostUnitStride(linalg::GenericOp op) {
  unsigned numLoops = op.getNumLoops();
  if (numLoops < 2)
    return {};
  // Only the highest-rank operands vote: broadcast ones (a row statistic,
  // gamma) are small and stay in cache whatever the order.
  unsigned maxRank = 0;
  for (AffineMap map : op.getIndexingMapsArray())
    maxRank = std::max(maxRank, map.getNumResults());
  SmallVector<int64_t> score(numLoops, 0);
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() == 0 || map.getNumResults() != maxRank)
      continue;
    if (std::optional<unsigned> d = firstDim(map.getResults().back()))
      score[*d] += op.isDpsInput(&operand) ? 2 : 1;
  }
  unsigned innermost = numLoops - 1, best = innermost;
  for (unsigned d = 0; d < numLoops; ++d)
    if (score[d] > score[best])
      best = d;
  if (best == innermost)
    return {};
  SmallVector<unsigned> permutation;
  for (unsigned d = 0; d < numLoops; ++d)
    if (d != best)
      permutation.push_back(d);
  permutation.push_back(best);
  return permutation;
}

namespace {
struct RlxLoopOrderPass : public rlx::impl::RlxLoopOrderBase<RlxLoopOrderPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> named;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op))
        named.push_back(op);
    });
    // Ops without a region builder stay named (and keep their loop order).
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics) {
      SmallVector<unsigned> permutation = innermostUnitStride(op);
      if (permutation.empty())
        continue;
      rewriter.setInsertionPoint(op);
      (void)linalg::interchangeGenericOp(rewriter, op, permutation);
    }
  }
};
} // namespace
