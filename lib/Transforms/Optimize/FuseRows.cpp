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
// A row reduction is never split. A producer that is also read outside
// linalg ops (by a contraction's micro-kernel loops) is never computed
// twice: with yield-shared, when the tiles (one row each) cover it, it is
// computed in them and its rows are yielded from the tile loop for the
// contraction; otherwise it is computed whole and the tiles read it. A *column*
// reduction root (a generic that sums over rows, innermost loop parallel:
// a norm's gamma or beta gradient) is tiled along its rows by an scf.for
// that carries the sums, with the statistics of each block of rows fused
// in; when large, its rows are split into a fixed number of partial sums
// (set by the shape, never by the thread count) on threads, added in a
// fixed order after. So a result is bitwise the same for any thread count.
//
// The pass also marks the combining arith.addf/mulf of every reduction
// generic `reassoc`: LLVM may then vectorize the reduction loop (partial sums
// in vector lanes, combined at the end) instead of running one scalar
// add per element, latency bound. The order is fixed at compile time, not
// by the thread count.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Optimize/Tiling.h"
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
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

/// Whether `found` holds for one of the linalg producers of `root` (through
/// inputs and inits, on tensors, transitively), each visited once; `found`
/// gets the value read and the number of producers visited so far.
static bool anyProducer(linalg::LinalgOp root,
                        function_ref<bool(Value, int64_t)> found) {
  SmallVector<Operation *> work = {root};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value operand : op->getOperands()) {
      auto producer = operand.getDefiningOp<linalg::LinalgOp>();
      if (!producer || !producer.hasPureTensorSemantics() ||
          !seen.insert(producer).second)
        continue;
      if (found(operand, seen.size()))
        return true;
      work.push_back(producer);
    }
  }
  return false;
}

/// Whether the linalg producers of `root` are at most `limit` ops: all of
/// them are fused into each tile, so a root at the end of a long chain (a
/// higher-order gradient) would copy the chain into its tile, and LLVM's
/// compile time grows with it (minutes for second derivatives without this
/// bound).
static bool fewProducers(linalg::LinalgOp root, int64_t limit) {
  return !anyProducer(root,
                      [&](Value, int64_t count) { return count > limit; });
}

namespace {
/// How a root is tiled: its row dims and one tile size per loop.
struct RowPlan {
  SmallVector<int64_t> tileSizes;
  bool parallel = false;
  /// A column reduction root: the tiled loops carry its sums (scf.for).
  bool columns = false;
};
} // namespace

/// Tile sizes that take whole blocks along `rows` (a set of loop dims): 1
/// on every row dim but the innermost one, which takes as many as fit
/// `tileElements` (a divisor of its size when static, so that the tiles
/// stay static; 0 = untiled when dynamic). Also returns the static total.
static SmallVector<int64_t>
blockTileSizes(ArrayRef<int64_t> ranges,
               const llvm::SmallDenseSet<unsigned> &rows, int64_t tileElements,
               int64_t &total) {
  int64_t rowElements = 1;
  unsigned inner = 0;
  total = 1;
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    if (rows.contains(dim)) {
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
  SmallVector<int64_t> sizes(ranges.size(), 0);
  for (unsigned dim : rows)
    sizes[dim] = 1;
  int64_t innerRange = ranges[inner];
  if (!ShapedType::isDynamic(rowElements) &&
      !ShapedType::isDynamic(innerRange) && rowElements > 0) {
    int64_t want = std::max<int64_t>(1, tileElements / rowElements);
    for (int64_t t = std::min(want, innerRange); t >= 1; --t) {
      if (innerRange % t == 0) {
        sizes[inner] = t;
        break;
      }
    }
  }
  return sizes;
}

using DimSet = llvm::SmallDenseSet<unsigned>;

/// The loop dims through which `root` reads its reduction-derived operands
/// (the statistics): the intersection of their dims, nullopt when it reads
/// none, failure when one is not read through a projection of the loops.
static FailureOr<std::optional<DimSet>>
statisticsDims(linalg::LinalgOp root, DenseMap<Operation *, bool> &seen) {
  std::optional<DimSet> rows;
  for (OpOperand *input : root.getDpsInputOperands()) {
    if (!fromReduction(input->get(), seen))
      continue;
    AffineMap map = root.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation())
      return failure();
    DimSet dims;
    for (AffineExpr e : map.getResults())
      dims.insert(cast<AffineDimExpr>(e).getPosition());
    if (!rows)
      rows = dims;
    else
      llvm::set_intersect(*rows, dims);
  }
  return rows;
}

/// Plans a column reduction root: a linalg.generic on tensors with one
/// init combined by addf, whose reduction loops are all outside its
/// innermost loop (parallel: the vector lanes) and are read by every
/// reduction-derived input (the statistics, then sliced by row blocks, not
/// recomputed per block). A contraction is rlx-optimize-contractions'.
static FailureOr<RowPlan> planColumns(linalg::LinalgOp root,
                                      int64_t tileElements,
                                      DenseMap<Operation *, bool> &seen) {
  auto generic = dyn_cast<linalg::GenericOp>(root.getOperation());
  if (!generic || generic.getNumDpsInits() != 1 || root.getNumLoops() < 2 ||
      root.getIteratorTypesArray().back() != utils::IteratorType::parallel ||
      linalg::isaContractionOpInterface(root) ||
      !isa_and_present<arith::AddFOp>(
          rlx::combinerOf(root, generic.getDpsInitsMutable()[0])))
    return failure();
  SmallVector<unsigned> reductionDims;
  root.getReductionDims(reductionDims);
  llvm::SmallDenseSet<unsigned> rows(reductionDims.begin(),
                                     reductionDims.end());
  FailureOr<std::optional<DimSet>> stats = statisticsDims(root, seen);
  if (failed(stats) ||
      (*stats && !llvm::all_of(reductionDims, [&](unsigned dim) {
        return (*stats)->contains(dim);
      })))
    return failure();
  RowPlan plan;
  int64_t total;
  plan.tileSizes =
      blockTileSizes(root.getStaticLoopRanges(), rows, tileElements, total);
  plan.columns = true;
  plan.parallel = rlx::worthThreads(root, total);
  return plan;
}

/// Whether `value` is also read by something other than linalg ops (or
/// slices that only linalg ops read): a contraction's micro-kernel loops.
/// Such a value is computed once, never recomputed in a row tile
/// (attention's exp(Z - max) for wrt=value, which the dv product reads: its
/// row sums would repeat the mask, max and exp; see yield-shared). A
/// tensor.dim counts as such a reader too (a causal block's masked scores,
/// whose row length is dynamic): fusing them as well put the mask, max
/// and exp into every row tile of attention's softmax and made the query
/// and key gradients 20% slower than reading the L2-resident tile.
static bool readOutsideLinalg(Value value) {
  auto linalgOnly = [](Value v) {
    return llvm::all_of(v.getUsers(), [](Operation *user) {
      return isa<linalg::LinalgOp>(user);
    });
  };
  return !llvm::all_of(value.getUsers(), [&](Operation *user) {
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
      return linalgOnly(slice.getResult());
    return isa<linalg::LinalgOp>(user);
  });
}

/// Whether `value` is read outside linalg ops by more than tensor.dim (a
/// contraction's micro-kernel loops).
static bool readOutsideLinalgNotDim(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
      return readOutsideLinalg(slice.getResult());
    return !isa<linalg::LinalgOp, tensor::DimOp>(user);
  });
}

/// Whether a linalg producer of `root` is also read by a contraction's
/// loops (see yield-shared).
static bool hasSharedProducer(linalg::LinalgOp root) {
  return anyProducer(root, [](Value value, int64_t) {
    return readOutsideLinalgNotDim(value);
  });
}

/// Plans the row tiling of `root`, or fails when it is not the tail of a
/// row group: an all-parallel linalg op on tensors with static or dynamic
/// shapes, reading at least one reduction-derived operand through a
/// projection of its loops (the statistics' dims), with identity output.
static FailureOr<RowPlan> planRows(linalg::LinalgOp root, int64_t tileElements,
                                   int64_t maxFusedOps, bool yieldShared,
                                   DenseMap<Operation *, bool> &seen) {
  if (!root.hasPureTensorSemantics() || root.getNumLoops() < 2 ||
      root->hasAttr(kFused) || !isa<TilingInterface>(root.getOperation()) ||
      (maxFusedOps > 0 && !fewProducers(root, maxFusedOps)))
    return failure();
  if (isReduction(root))
    return planColumns(root, tileElements, seen);
  for (OpOperand &init : root.getDpsInitsMutable())
    if (!root.getMatchingIndexingMap(&init).isIdentity())
      return failure();
  FailureOr<std::optional<DimSet>> stats = statisticsDims(root, seen);
  if (failed(stats))
    return failure();
  std::optional<DimSet> rows = *stats;
  // A full reduction (a scalar statistic) has no row to tile by.
  if (!rows || rows->empty() || rows->size() == root.getNumLoops())
    return failure();

  // Small rows share a tile instead of paying a loop iteration and small
  // allocations each; a group that yields a shared producer takes one row
  // per tile, whose rows of it are then all computed in the tiles (and
  // stay in L1 from one op of the row to the next).
  RowPlan plan;
  int64_t total;
  bool oneRow = yieldShared && hasSharedProducer(root);
  plan.tileSizes = blockTileSizes(root.getStaticLoopRanges(), *rows,
                                  oneRow ? 1 : tileElements, total);
  plan.parallel = rlx::worthThreads(root, total);
  return plan;
}

/// Splits the scf.for that carries a column root's sums (one iter_arg,
/// static bounds) into `partials` chunks of its iterations on an
/// scf.forall, each summing into its own row of a [partials, ...] tensor
/// from zero, then adds the rows to the loop's init in order 0, 1, ...
/// (a linalg.reduce). The chunk count is `partials` or a smaller divisor of
/// the trip count, never the thread count: the result does not depend on
/// it. Leaves the loop alone when it has no such split.
static void splitIntoPartials(RewriterBase &rewriter, scf::ForOp loop,
                              int64_t partials) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (loop.getNumRegionIterArgs() != 1 || !lb || !ub || !step || *step <= 0 ||
      (*ub - *lb) % *step != 0)
    return;
  int64_t trips = (*ub - *lb) / *step;
  while (partials > 1 && (trips % partials != 0 || trips < 2 * partials))
    partials /= 2;
  if (partials < 2)
    return;
  Value init = loop.getInitArgs()[0];
  auto accType = dyn_cast<RankedTensorType>(init.getType());
  if (!accType)
    return;

  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<OpFoldResult> accSizes =
      tensor::getMixedSizes(rewriter, loc, init);
  SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(partials)};
  sizes.append(accSizes);
  Value all =
      tensor::EmptyOp::create(rewriter, loc, sizes, accType.getElementType());
  auto forall = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(partials)},
      ValueRange{all}, std::nullopt);
  Value p = forall.getInductionVars()[0];
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets(accType.getRank() + 1, zero),
      strides(accType.getRank() + 1, one);
  offsets[0] = p;
  SmallVector<OpFoldResult> rowSizes = {one};
  rowSizes.append(accSizes);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(forall.getTerminator());
    Value row = tensor::ExtractSliceOp::create(rewriter, loc, accType,
                                               forall.getRegionIterArgs()[0],
                                               offsets, rowSizes, strides);
    Value zeroValue = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(accType.getElementType()));
    Value start =
        linalg::FillOp::create(rewriter, loc, zeroValue, row).getResult(0);
    int64_t chunk = trips / partials * *step;
    Value lower = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(
            rewriter, loc, p,
            arith::ConstantIndexOp::create(rewriter, loc, chunk)),
        arith::ConstantIndexOp::create(rewriter, loc, *lb));
    Value upper = arith::AddIOp::create(
        rewriter, loc, lower,
        arith::ConstantIndexOp::create(rewriter, loc, chunk));
    auto part = cast<scf::ForOp>(rewriter.clone(*loop));
    part.getLowerBoundMutable().assign(lower);
    part.getUpperBoundMutable().assign(upper);
    part.getInitArgsMutable()[0].assign(start);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, part.getResult(0),
                                          forall.getRegionIterArgs()[0],
                                          offsets, rowSizes, strides);
  }
  SmallVector<int64_t> dims = {0};
  auto merge = linalg::ReduceOp::create(
      rewriter, loc, ValueRange{forall.getResult(0)}, ValueRange{init}, dims,
      [](OpBuilder &b, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(b, nloc, args[0], args[1]);
        linalg::YieldOp::create(b, nloc, sum);
      });
  merge->setAttr(kFused, rewriter.getUnitAttr());
  rewriter.replaceOp(loop, merge->getResults());
}

/// Whether the tiles `slice` of a producer's result cover all of it: in
/// each dim, the slice is either the whole dim or one index at the
/// induction variable of a tile loop that runs over the whole dim by 1.
/// (The producer's rows are then all yielded.)
static bool slicesCoverAll(tensor::ExtractSliceOp slice, Operation *outside) {
  // The tile loops: the slice's loops up to `outside` (the root's parent),
  // whose own loops are not this tiling's.
  SmallVector<LoopLikeOpInterface> loops;
  for (Operation *op = slice->getParentOp(); op && op != outside;
       op = op->getParentOp())
    if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
      loops.push_back(loop);
  Value source = slice.getSource();
  auto type = cast<RankedTensorType>(source.getType());
  if (!slice.hasUnitStride() ||
      slice.getResultType().getRank() != type.getRank())
    return false;
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(),
                            sizes = slice.getMixedSizes();
  for (int64_t d = 0; d < type.getRank(); ++d) {
    FailureOr<bool> full = ValueBoundsConstraintSet::areEqual(
        ValueBoundsConstraintSet::Variable(sizes[d]),
        ValueBoundsConstraintSet::Variable(source, d));
    std::optional<int64_t> offset = getConstantIntValue(offsets[d]);
    if (succeeded(full) && *full && offset && *offset == 0)
      continue;
    auto iv = dyn_cast_if_present<Value>(offsets[d]);
    if (!iv || !isConstantIntValue(sizes[d], 1))
      return false;
    bool covered = llvm::any_of(loops, [&](LoopLikeOpInterface loop) {
      std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
      std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds(),
                                               ubs = loop.getLoopUpperBounds(),
                                               steps = loop.getLoopSteps();
      if (!ivs || !lbs || !ubs || !steps)
        return false;
      for (auto [i, v] : llvm::enumerate(*ivs)) {
        if (v != iv || !isConstantIntValue((*lbs)[i], 0) ||
            !isConstantIntValue((*steps)[i], 1))
          continue;
        FailureOr<bool> whole = ValueBoundsConstraintSet::areEqual(
            ValueBoundsConstraintSet::Variable((*ubs)[i]),
            ValueBoundsConstraintSet::Variable(source, d));
        if (succeeded(whole) && *whole)
          return true;
      }
      return false;
    });
    if (!covered)
      return false;
  }
  return true;
}

/// Tiles `root` by rows and fuses its linalg producers into the tile.
static LogicalResult fuseRows(RewriterBase &rewriter, linalg::LinalgOp root,
                              const RowPlan &plan, int64_t partials,
                              bool yieldShared) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), plan.tileSizes));
  tiling.setLoopType(plan.parallel && !plan.columns
                         ? scf::SCFTilingOptions::LoopType::ForallOp
                         : scf::SCFTilingOptions::LoopType::ForOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  Operation *outside = root->getParentOp();
  // Fuse linalg producers (and the tensor.empty/fill of their inits); what
  // is not computed by linalg (function arguments, views, the loops of other
  // stages) is read through slices.
  // The loops of a column root carry its sums: their init (a fill) must
  // not be fused, or every block would restart from zero.
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp slice, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *op = producer.getOwner();
        if (!isa<linalg::LinalgOp, tensor::EmptyOp>(op) ||
            (plan.columns && isa<BlockArgument>(slice.getSource())))
          return std::nullopt;
        if (readOutsideLinalg(producer)) {
          // Computed in the tiles and yielded whole for its other readers
          // (yield-shared), or computed whole and read by the tiles.
          if (!yieldShared || plan.columns ||
              !readOutsideLinalgNotDim(producer) ||
              !slicesCoverAll(slice, outside))
            return std::nullopt;
          return scf::SCFTileAndFuseOptions::ControlFnResult{
              /*yieldProducerReplacement=*/true};
        }
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
  // The root's results, and those of the producers yielded for other
  // readers (yield-shared); the readers before the loop (the fused ops,
  // dead now) keep the original.
  DominanceInfo dominance(outside);
  for (auto &entry : result->replacements) {
    Value original = entry.first, replacement = entry.second;
    // The tiles' sizes may read the original's dims (an attention block's
    // dynamic row length): its init has them, so the original can go.
    if (auto producer = original.getDefiningOp<DestinationStyleOpInterface>())
      for (OpOperand &use : llvm::make_early_inc_range(original.getUses()))
        if (isa<tensor::DimOp>(use.getOwner()))
          rewriter.modifyOpInPlace(use.getOwner(), [&] {
            use.set(producer.getTiedOpOperand(cast<OpResult>(original))->get());
          });
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return dominance.properlyDominates(replacement, use.getOwner());
    });
  }
  if (plan.columns && plan.parallel && partials > 1 && !result->loops.empty())
    if (auto loop = dyn_cast<scf::ForOp>(result->loops.front().getOperation()))
      splitIntoPartials(rewriter, loop, partials);
  return success();
}

/// Marks the combiners of reduction generics `reassoc` (file comment).
static void reassociateReductions(Operation *root) {
  root->walk([](linalg::GenericOp op) {
    if (!isReduction(op))
      return;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Operation *combiner = rlx::combinerOf(op, init);
      if (!isa_and_present<arith::AddFOp, arith::MulFOp>(combiner))
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
                planRows(op, rowTileElements, maxFusedOps, yieldShared, seen);
            if (succeeded(p)) {
              root = op;
              plan = std::move(p);
            }
          });
      if (!root)
        break;
      if (failed(
              fuseRows(rewriter, root, *plan, columnPartials, yieldShared))) {
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
