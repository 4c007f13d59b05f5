//===- FuseRows.cpp - the rlx-fuse-rows pass ------------------------------===//
//
// The decompositions of the memory-bound backward ops (norms, softmax,
// cross-entropy) are chains of linalg ops over whole tensors: one or two
// row reductions (the statistics), a small per-row generic, and an
// elementwise generic that reads the statistics back. Lowered as they are,
// every op is a full pass over memory. This pass makes them one pass per
// block of rows:
//
//   scf.forall (row blocks)                     threads, whole rows
//     statistics of the block's rows            (reductions, [T] tiles)
//     per-row generic                           ([T])
//     elementwise tail                          ([T, D], reads the block
//                                                again, from cache)
//
// by tiling the elementwise *root* (an all-parallel linalg op that reads,
// directly or through other linalg ops, the result of a reduction) along
// its row dims and fusing every linalg producer into the tile
// (scf::tileConsumerAndFuseProducersUsingSCF). The row dims are the dims
// through which the root reads the reduction-derived operands: the
// statistics depend on nothing else, so no reduction is computed twice.
// Reductions are never split, so a result is bitwise the same for any
// thread count.
//
// The pass also marks the combining arith.addf/mulf of every reduction
// generic `reassoc`: LLVM may then vectorize the reduction loop (partial sums
// in vector lanes, combined at the end) instead of running one scalar
// add per element, latency bound. The order is fixed at compile time, not
// by the thread count.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/SetOperations.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXFUSEROWS
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Marks the ops of a row group this pass has built (not roots again).
static constexpr StringLiteral kFused = "rlx.fused_rows";

/// Whether `op` reduces (has a reduction iterator).
static bool isReduction(linalg::LinalgOp op) {
  return op.getNumReductionLoops() > 0;
}

/// Whether `value` is computed, through linalg ops on tensors only, from
/// the result of a linalg reduction. `seen` caches the answers.
static bool fromReduction(Value value, DenseMap<Operation *, bool> &seen) {
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || !op.hasPureTensorSemantics())
    return false;
  auto [it, inserted] = seen.try_emplace(op, false);
  if (!inserted)
    return it->second;
  bool result = isReduction(op);
  for (Value input : op.getDpsInputs())
    result = result || fromReduction(input, seen);
  seen[op] = result;
  return result;
}

/// Whether the linalg producers of `root` (through inputs and inits, on
/// tensors, transitively) are at most `limit` ops: all of them are fused
/// into each tile, so a root at the end of a long chain (a higher-order
/// gradient) would copy the chain into its tile, and LLVM's compile time
/// grows with it (minutes for second derivatives without this bound).
static bool fewProducers(linalg::LinalgOp root, int64_t limit) {
  SmallVector<Operation *> work = {root};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value operand : op->getOperands()) {
      auto producer = operand.getDefiningOp<linalg::LinalgOp>();
      if (!producer || !producer.hasPureTensorSemantics() ||
          !seen.insert(producer).second)
        continue;
      if (static_cast<int64_t>(seen.size()) > limit)
        return false;
      work.push_back(producer);
    }
  }
  return true;
}

namespace {
/// How a root is tiled: its row dims and one tile size per loop.
struct RowPlan {
  SmallVector<int64_t> tileSizes;
  bool parallel = false;
};
} // namespace

/// Plans the row tiling of `root`, or fails when it is not the tail of a
/// row group: an all-parallel linalg op on tensors with static or dynamic
/// shapes, reading at least one reduction-derived operand through a
/// projection of its loops (the statistics' dims), with identity output.
static FailureOr<RowPlan> planRows(linalg::LinalgOp root, int64_t tileElements,
                                   int64_t maxFusedOps,
                                   DenseMap<Operation *, bool> &seen) {
  if (!root.hasPureTensorSemantics() || isReduction(root) ||
      root.getNumLoops() < 2 || root->hasAttr(kFused) ||
      !isa<TilingInterface>(root.getOperation()) ||
      (maxFusedOps > 0 && !fewProducers(root, maxFusedOps)))
    return failure();
  for (OpOperand &init : root.getDpsInitsMutable())
    if (!root.getMatchingIndexingMap(&init).isIdentity())
      return failure();
  // The dims through which the statistics are read: the intersection over
  // the reduction-derived operands (each a projection of the loops).
  std::optional<llvm::SmallDenseSet<unsigned>> rows;
  for (OpOperand *input : root.getDpsInputOperands()) {
    if (!fromReduction(input->get(), seen))
      continue;
    AffineMap map = root.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation())
      return failure();
    llvm::SmallDenseSet<unsigned> dims;
    for (AffineExpr e : map.getResults())
      dims.insert(cast<AffineDimExpr>(e).getPosition());
    if (!rows)
      rows = dims;
    else
      llvm::set_intersect(*rows, dims);
  }
  // A full reduction (a scalar statistic) has no row to tile by.
  if (!rows || rows->empty() || rows->size() == root.getNumLoops())
    return failure();

  // One row per tile on every row dim but the innermost one, which takes as
  // many rows as fit `tileElements` (a divisor of its size when static, so
  // that the tiles stay static) — small rows then share a tile instead of
  // paying a loop iteration and small allocations each.
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  int64_t rowElements = 1, total = 1;
  unsigned inner = 0;
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    if (rows->contains(dim)) {
      inner = std::max<unsigned>(inner, dim);
    } else {
      rowElements =
          ShapedType::isDynamic(range) || ShapedType::isDynamic(rowElements)
              ? ShapedType::kDynamic
              : rowElements * range;
    }
    total = ShapedType::isDynamic(range) || ShapedType::isDynamic(total)
                ? ShapedType::kDynamic
                : total * range;
  }
  RowPlan plan;
  plan.tileSizes.assign(ranges.size(), 0);
  for (unsigned dim : *rows)
    plan.tileSizes[dim] = 1;
  int64_t innerRange = ranges[inner];
  if (!ShapedType::isDynamic(rowElements) &&
      !ShapedType::isDynamic(innerRange) && rowElements > 0) {
    int64_t want = std::max<int64_t>(1, tileElements / rowElements);
    for (int64_t t = std::min(want, innerRange); t >= 1; --t) {
      if (innerRange % t == 0) {
        plan.tileSizes[inner] = t;
        break;
      }
    }
  }
  // Threads only for large groups (a fork/join costs microseconds: the
  // same threshold as rlx-optimize-contractions' contractions) that are in
  // no loop: inside one (an attention block's scores, in the forall over
  // heads) a forall would fork a nested parallel region per iteration.
  plan.parallel = !root->getParentOfType<LoopLikeOpInterface>() &&
                  (ShapedType::isDynamic(total) || total >= (1 << 20));
  return plan;
}

/// Tiles `root` by rows and fuses its linalg producers into the tile.
static LogicalResult fuseRows(RewriterBase &rewriter, linalg::LinalgOp root,
                              const RowPlan &plan) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), plan.tileSizes));
  tiling.setLoopType(plan.parallel ? scf::SCFTilingOptions::LoopType::ForallOp
                                   : scf::SCFTilingOptions::LoopType::ForOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  // Fuse linalg producers (and the tensor.empty/fill of their inits); what
  // is not computed by linalg (function arguments, views, the loops of other
  // stages) is read through slices.
  options.setFusionControlFn(
      [](tensor::ExtractSliceOp, OpResult producer,
         bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *op = producer.getOwner();
        if (!isa<linalg::LinalgOp, tensor::EmptyOp>(op))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(root.getOperation()), options);
  if (failed(result))
    return failure();
  for (Operation *op : result->tiledAndFusedOps)
    op->setAttr(kFused, rewriter.getUnitAttr());
  for (OpResult res : root->getResults()) {
    auto it = result->replacements.find(res);
    if (it != result->replacements.end())
      rewriter.replaceAllUsesWith(res, it->second);
  }
  return success();
}

/// Marks the combiners of reduction generics `reassoc` (file comment).
static void reassociateReductions(Operation *root) {
  root->walk([](linalg::GenericOp op) {
    if (!isReduction(op))
      return;
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    for (OpOperand &init : op.getDpsInitsMutable()) {
      BlockArgument acc = op.getMatchingBlockArgument(&init);
      Value value =
          yield.getOperand(init.getOperandNumber() - op.getNumDpsInputs());
      Operation *combiner = value.getDefiningOp();
      if (!isa_and_present<arith::AddFOp, arith::MulFOp>(combiner) ||
          !llvm::is_contained(combiner->getOperands(), acc))
        continue;
      auto fm = cast<arith::ArithFastMathInterface>(combiner);
      fm->setAttr(fm.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(
                      op.getContext(), fm.getFastMathFlagsAttr().getValue() |
                                           arith::FastMathFlags::reassoc));
    }
  });
}

namespace {
struct RlxFuseRowsPass : public rlx::impl::RlxFuseRowsBase<RlxFuseRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *top = getOperation();
    IRRewriter rewriter(&getContext());
    // Roots last to first: a per-row generic that is itself a root of an
    // earlier group is fused into the elementwise tail that reads it.
    while (true) {
      DenseMap<Operation *, bool> seen;
      linalg::LinalgOp root;
      FailureOr<RowPlan> plan = failure();
      top->walk<WalkOrder::PostOrder, mlir::ReverseIterator>(
          [&](linalg::LinalgOp op) {
            if (root || op->getParentOfType<linalg::LinalgOp>())
              return;
            FailureOr<RowPlan> p =
                planRows(op, rowTileElements, maxFusedOps, seen);
            if (succeeded(p)) {
              root = op;
              plan = std::move(p);
            }
          });
      if (!root)
        break;
      if (failed(fuseRows(rewriter, root, *plan))) {
        root->setAttr(kFused, rewriter.getUnitAttr());
        continue;
      }
      rewriter.eraseOp(root);
      // The fused producers are dead now unless read elsewhere.
      SmallVector<Operation *> dead;
      top->walk([&](linalg::LinalgOp op) {
        if (op.hasPureTensorSemantics() && op->use_empty())
          dead.push_back(op);
      });
      for (Operation *op : dead)
        rewriter.eraseOp(op);
    }
    top->walk([](Operation *op) { op->removeAttr(kFused); });
    if (reassociate)
      reassociateReductions(top);
  }
};
} // namespace
