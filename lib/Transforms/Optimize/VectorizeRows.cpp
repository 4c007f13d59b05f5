//===- VectorizeRows.cpp - the rlx-vectorize-rows pass --------------------===//
//
// The elementwise ops and row reductions of the memory-bound backward ops
// (norms, cross-entropy, activations, fake-quantize), whether rlx-fuse-rows
// has put them into row tiles or not, are linalg.generics that
// convert-linalg-to-loops would lower to scalar loops. This pass vectorizes
// them along their innermost loop, which every operand either does not use
// (a row statistic, broadcast) or walks with unit stride (its last index):
//
//   scf.for (each index of the outer dims)           tile 1; scf.forall
//                                                    (threads) when parallel;
//                                                    a column reduction's
//                                                    rows by 4 (kColumnRows)
//     scf.for j by V                                 static V-wide tiles
//       elementwise:  vector<V> ops
//       reduction:    acc += vector<V> ...           partial sums: a vector
//                                                    iter_arg (registers)
//     elementwise: the peeled remainder (< V)        static when the row
//                                                    length is, else scalar
//     reduction: s = reduce(acc), then the static    one horizontal reduction
//       remainder (< V) reduced into s               (dynamic: scalar loop)
//
// V is the host's vector width in elements of the widest operand type. The
// remainder is peeled or split off (masked vectors were ~10x slower), so that
// the main tiles are static and vectorize op by op (linalg::vectorize);
// whole rows are never one vector. The reductions are split into V partial
// sums (scf tiling with PartialReductionOuterReduction), whose transfers are
// then hoisted into loop-carried vectors: the summation order changes (it
// does not depend on the thread count).
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "Optimize/HostTarget.h"
#include "Optimize/Tiling.h"
#include "Optimize/VectorizeInterleaved.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXVECTORIZEROWS
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Marks the V-wide tiles (and their accumulator fills and merges) that
/// this pass vectorizes once their shapes are static.
static constexpr StringLiteral kTile = "rlx.vector_tile";

/// The widest element type (in bits) that `op` reads or writes along its
/// innermost loop or computes in floating point. A per-row operand (a
/// cross-entropy label) is one scalar per tile, and index arithmetic (the
/// label compared with linalg.index) is only a lane mask: neither narrows
/// the f32 tiles to 64-bit lanes.
static int64_t widestBits(linalg::GenericOp op) {
  unsigned inner = op.getNumLoops() - 1;
  int64_t bits = 0;
  auto account = [&](Type type) {
    Type element = getElementTypeOrSelf(type);
    if (element.isIntOrFloat())
      bits = std::max<int64_t>(bits, element.getIntOrFloatBitWidth());
  };
  for (OpOperand &operand : op->getOpOperands())
    if (op.getMatchingIndexingMap(&operand).isFunctionOfDim(inner))
      account(operand.get().getType());
  for (Operation &inner : op.getBody()->without_terminator())
    for (Value result : inner.getResults())
      if (isa<FloatType>(result.getType()))
        account(result.getType());
  return bits;
}

/// The number of elements per vector tile of `op`, or 0 when `op` is not a
/// generic this pass vectorizes: pure tensors, scalar arith/math body ops
/// and the linalg.index of the innermost loop, projected-permutation maps, and
/// an innermost loop that every operand indexes last (unit stride) or not at
/// all, at least one tile long.
static int64_t planLanes(linalg::GenericOp op, int64_t vectorBits) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() == 0 ||
      op->getParentOfType<linalg::LinalgOp>())
    return 0;
  unsigned inner = op.getNumLoops() - 1;
  bool innerUsed = false;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation())
      return 0;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      if (cast<AffineDimExpr>(expr).getPosition() != inner)
        continue;
      if (i + 1 != map.getNumResults())
        return 0;
      innerUsed = true;
    }
  }
  if (!innerUsed)
    return 0;
  for (Operation &inner : op.getBody()->without_terminator()) {
    // The index of the vectorized dim is a vector.step. That of an outer
    // dim (a triangular mask's row) is left alone: its vectorized broadcast
    // sent the lowering patterns below into an endless loop.
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (index.getDim() + 1 != op.getNumLoops())
        return 0;
      continue;
    }
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return 0;
    for (Type type : inner.getResultTypes())
      if (!type.isIntOrIndexOrFloat())
        return 0;
  }
  int64_t bits = widestBits(op);
  if (bits == 0)
    return 0;
  int64_t lanes = std::max<int64_t>(1, vectorBits / bits);
  if (lanes < 2)
    return 0;
  int64_t range = op.getStaticLoopRanges()[inner];
  if (!ShapedType::isDynamic(range) && range < lanes)
    return 0;
  return lanes;
}

/// Marks the ops of a tiling result that are vectorized later.
static void markTiles(const scf::SCFTilingResult &result) {
  auto mark = [](Operation *op) {
    if (op && isa<linalg::LinalgOp>(op))
      op->setAttr(kTile, UnitAttr::get(op->getContext()));
  };
  for (Operation *op : result.tiledOps)
    mark(op);
  for (Operation *op : result.mergeOps)
    mark(op);
  for (Value init : result.initialValues)
    mark(init.getDefiningOp());
}

/// Whether `value` is (a slice of) a linalg.fill of a float constant that
/// is not NaN.
static bool isNumberFill(Value value) {
  while (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>())
    value = slice.getSource();
  TypedAttr constant;
  if (!rlx::constantFill(value, constant))
    return false;
  auto number = dyn_cast<FloatAttr>(constant);
  return number && !number.getValue().isNaN();
}

/// fast-maxima, before tiling `op` (tileRows: its row tiles then read
/// their rows of these inits, untouched): the inits of `op`'s maxnumf
/// reductions that start from a number (softmax's -inf fill).
static SmallVector<bool> maximaFromNumbers(linalg::LinalgOp op) {
  SmallVector<bool> fromNumber;
  for (OpOperand &init : op.getDpsInitsMutable())
    fromNumber.push_back(
        isNumberFill(init.get()) &&
        isa_and_present<arith::MaxNumFOp>(rlx::combinerOf(op, init)));
  return fromNumber;
}

/// fast-maxima, after tiling: the partial maxima of a reduction whose init
/// is a number start at -inf instead of maxnumf's neutral NaN. The merge
/// takes the maximum of the partials and that number, which a NaN partial
/// (skipped) and a -inf one (below it) leave alike: the result is the same,
/// and the partials are never NaN (maxnumf with a number is a number), which
/// selectMaxima uses.
static void startMaximaAtMinusInf(RewriterBase &rewriter,
                                  const scf::SCFTilingResult &result,
                                  ArrayRef<bool> fromNumber) {
  for (auto [init, number] : llvm::zip(result.initialValues, fromNumber)) {
    auto fill = init.getDefiningOp<linalg::FillOp>();
    auto type = fill ? dyn_cast<FloatType>(fill.value().getType()) : nullptr;
    if (!number || !type)
      continue;
    rewriter.setInsertionPoint(fill);
    APFloat inf = APFloat::getInf(type.getFloatSemantics(), /*Negative=*/true);
    Value minusInf = arith::ConstantOp::create(
        rewriter, fill.getLoc(), type, rewriter.getFloatAttr(type, inf));
    rewriter.modifyOpInPlace(
        fill, [&] { fill.getInputsMutable()[0].assign(minusInf); });
  }
}

/// Peels the remainder iteration of each `scf.for` in `loops`.
static void peel(RewriterBase &rewriter, ArrayRef<LoopLikeOpInterface> loops) {
  for (LoopLikeOpInterface loop : loops) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    if (!forOp)
      continue;
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
}

/// Gives each init of the reduction `op` that is a shared linalg.fill its
/// own fill (of its own tensor.empty): the tiled reduction then accumulates
/// in place into it, where a shared fill is copied once per reduction that
/// writes it.
static void unshareFills(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0)
    return;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto fill = init.get().getDefiningOp<linalg::FillOp>();
    if (!fill || fill->hasOneUse())
      continue;
    rewriter.setInsertionPoint(op);
    IRMapping map;
    Value dest = fill.getDpsInits().front();
    if (auto empty = dest.getDefiningOp<tensor::EmptyOp>())
      map.map(dest, rewriter.clone(*empty)->getResult(0));
    Operation *copy = rewriter.clone(*fill, map);
    rewriter.modifyOpInPlace(op, [&] { init.set(copy->getResult(0)); });
  }
}

/// Whether the rows of `op` (its outer dims tiled by `sizes`) are one
/// `scf.forall`: they are all parallel, `op` is not inside a loop already
/// (no nested parallel regions; fuse-rows' row blocks are parallel loops
/// themselves), and `op` has at least `minElements` iterations (or a
/// dynamic count: a dynamic batch is assumed large). Each row is then
/// computed by one thread exactly as by the sequential loop, so the result
/// does not depend on the thread count.
static bool rowsInParallel(linalg::GenericOp op, ArrayRef<int64_t> sizes,
                           int64_t minElements) {
  if (op->getParentOfType<LoopLikeOpInterface>())
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [size, iterator] : llvm::zip(sizes, iterators))
    if (size != 0 && !linalg::isParallelIterator(iterator))
      return false;
  int64_t count = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return true;
    count *= range;
  }
  return count >= minElements;
}

/// How the row loop runs: an `scf.forall` when `parallel` and the op has at
/// least `minElements` elements (see rowsInParallel).
struct RowLoopOptions {
  bool parallel;
  int64_t minElements;
};

/// Rows of a column reduction (an outer reduction dim, the innermost dim
/// parallel: a norm's gamma or beta gradient) summed per accumulator
/// update (option column-rows): its tiles are [kColumnRows, V], whose rows
/// are added to the accumulator vector one after the other, in registers,
/// before it is stored. Tiles of one row loaded, added and stored the
/// accumulator for every row (layer_norm_backward_beta 4096x1024, one
/// thread: 0.27-0.50 ms, now 0.24-0.32). The sums keep their order, so
/// results are bitwise the same.
static constexpr int64_t kColumnRows = 4;

/// The outer dim of `op` whose tiles are kColumnRows long: the innermost
/// outer reduction dim when the innermost dim is parallel and its static
/// extent is a multiple of kColumnRows; else none (-1). Only for rows of
/// whole `lanes`-wide tiles: a remainder tile (a 33-wide row's last column,
/// vector<4x1>) sent the lowering patterns into an endless loop.
static int64_t columnRowsDim(linalg::GenericOp op, int64_t lanes) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t inner = static_cast<int64_t>(ranges.size()) - 1;
  if (!linalg::isParallelIterator(iterators[inner]) ||
      ShapedType::isDynamic(ranges[inner]) || ranges[inner] % lanes != 0)
    return -1;
  for (int64_t d = inner - 1; d >= 0; --d) {
    if (!linalg::isReductionIterator(iterators[d]))
      continue;
    if (ShapedType::isDynamic(ranges[d]) || ranges[d] % kColumnRows != 0)
      return -1;
    return d;
  }
  return -1;
}

/// Level 1 of the file comment: tiles every outer dim of `op` that is not
/// 1 by 1 (`rowsDim`, a column reduction's rows, by kColumnRows; -1: none)
/// and returns the tile (`op` itself when there is none).
static FailureOr<TilingInterface> tileOuter(RewriterBase &rewriter,
                                            linalg::GenericOp op,
                                            RowLoopOptions rowLoop,
                                            int64_t rowsDim) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned inner = ranges.size() - 1;
  SmallVector<int64_t> sizes(ranges.size(), 0);
  bool tiled = false;
  for (unsigned d = 0; d < inner; ++d) {
    if (ranges[d] != 1) {
      sizes[d] = static_cast<int64_t>(d) == rowsDim ? kColumnRows : 1;
      tiled = true;
    }
  }
  auto tiling = cast<TilingInterface>(op.getOperation());
  if (!tiled)
    return tiling;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setLoopType(rowLoop.parallel &&
                              rowsInParallel(op, sizes, rowLoop.minElements)
                          ? scf::SCFTilingOptions::LoopType::ForallOp
                          : scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, tiling, options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return cast<TilingInterface>(result->tiledOps.back());
}

/// Level 2 of the file comment: V-wide tiles of the innermost dim of the
/// row tile `op`, partial sums when it reduces; the remainder peeled.
/// `fromNumber` (maximaFromNumbers, or empty) marks the inits whose partial
/// maxima start at -inf.
static LogicalResult tileLanes(RewriterBase &rewriter, TilingInterface op,
                               int64_t lanes, ArrayRef<bool> fromNumber) {
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  unsigned inner = linalgOp.getNumLoops() - 1;
  SmallVector<int64_t> sizes(linalgOp.getNumLoops(), 0);
  sizes[inner] = lanes;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  if (linalg::isReductionIterator(linalgOp.getIteratorTypesArray()[inner])) {
    options.setReductionTilingStrategy(
        ReductionTilingStrategy::PartialReductionOuterReduction);
    options.setReductionDims({inner});
  }
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  startMaximaAtMinusInf(rewriter, *result, fromNumber);
  markTiles(*result);
  peel(rewriter, result->loops);
  return success();
}

/// Splits off the remainder (< V) of the row reduction tile `op` as its own
/// op, which continues the sums of the V-wide part in the same row
/// iteration: peeled inside the tile loop it would update part of the V
/// partial sums, a tensor (a buffer per row) instead of registers. A
/// dynamic row splits at (n floordiv V) * V: the tile loop of the part
/// before it then has no remainder (its peeled rest is empty and folds
/// away), and the rest (< V, dynamic) stays scalar. Returns the V-wide part
/// (`op` when there is no remainder); a static remainder is marked.
static FailureOr<TilingInterface>
splitRemainder(RewriterBase &rewriter, TilingInterface op, int64_t lanes) {
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  unsigned inner = linalgOp.getNumLoops() - 1;
  int64_t range = linalgOp.getStaticLoopRanges()[inner];
  if (!linalg::isReductionIterator(linalgOp.getIteratorTypesArray()[inner]) ||
      (!ShapedType::isDynamic(range) && range % lanes == 0))
    return op;
  rewriter.setInsertionPoint(op);
  OpFoldResult splitPoint = rewriter.getIndexAttr(range / lanes * lanes);
  if (ShapedType::isDynamic(range)) {
    Location loc = op.getLoc();
    SmallVector<Range> ranges = op.getIterationDomain(rewriter);
    AffineExpr n = rewriter.getAffineSymbolExpr(0);
    splitPoint = affine::makeComposedFoldedAffineApply(
        rewriter, loc, n.floorDiv(lanes) * lanes, {ranges[inner].size});
  }
  auto [main, rest] = linalg::splitOp(rewriter, op, inner, splitPoint);
  if (!main || !rest)
    return failure();
  if (!ShapedType::isDynamic(range))
    rest->setAttr(kTile, rewriter.getUnitAttr());
  return main;
}

/// Tiles `op` into the loop nest of the file comment (tiles marked). A row
/// reduction keeps about `reductionVectors` independent add chains: with k
/// results (sums), k chains already, each of reductionVectors / k V-wide
/// partial sums (when the row has that many lanes): one wide vector, which
/// LLVM splits into registers with independent adds. More would spill:
/// layer norm's three fused sums at 4 vectors each ran 2.4 -> 3.2 ms.
static LogicalResult tileRows(RewriterBase &rewriter, linalg::GenericOp op,
                              int64_t lanes, int64_t reductionVectors,
                              RowLoopOptions rowLoop, bool columnRows,
                              bool fastMaxima) {
  unsigned inner = op.getNumLoops() - 1;
  int64_t range = op.getStaticLoopRanges()[inner];
  int64_t vectors = reductionVectors / op.getNumDpsInits();
  SmallVector<bool> fromNumber =
      fastMaxima ? maximaFromNumbers(op) : SmallVector<bool>();
  if (linalg::isReductionIterator(op.getIteratorTypesArray()[inner]) &&
      vectors > 1 && !ShapedType::isDynamic(range) && range >= lanes * vectors)
    lanes *= vectors;
  FailureOr<TilingInterface> row = tileOuter(
      rewriter, op, rowLoop, columnRows ? columnRowsDim(op, lanes) : -1);
  if (failed(row))
    return failure();
  FailureOr<TilingInterface> main = splitRemainder(rewriter, *row, lanes);
  if (failed(main))
    return failure();
  return tileLanes(rewriter, *main, lanes, fromNumber);
}

/// Marks the horizontal sums and products this pass made (the reduction of
/// a row's partial sums, and of its remainder) `reassoc`, so that LLVM
/// reduces each vector as a tree of log2(V) shuffles and adds. In order, a
/// vector<64xf32> of partial sums is 64 dependent adds per row and
/// statistic (layer norm's input gradient has four; 4096x1024, one thread:
/// 3.12-3.29 -> 2.81-2.90 ms). The partial sums already reassociate the
/// row; the order stays fixed (the same for any thread count).
static void
reassociateHorizontalReductions(Operation *root,
                                const llvm::SmallPtrSetImpl<Operation *> &old) {
  root->walk([&](vector::ReductionOp op) {
    vector::CombiningKind kind = op.getKind();
    if (old.contains(op) || !isa<FloatType>(op.getDest().getType()) ||
        (kind != vector::CombiningKind::ADD &&
         kind != vector::CombiningKind::MUL))
      return;
    op.setFastmath(op.getFastmath() | arith::FastMathFlags::reassoc);
  });
}

/// fast-maxima: in a loop whose vector iter_arg starts at a number and is
/// yielded as maxnumf(x, arg), arg is never NaN, so maxnumf(x, arg) is
/// x > arg ? x : arg: one vmaxps on x86, where maxnumf is a compare, an
/// unordered compare, an or and a blend, all in the loop-carried chain
/// (attention's row maxima over dynamic-length rows, one accumulator,
/// waited 5 cycles per vector).
static void selectMaxima(RewriterBase &rewriter, Operation *root) {
  root->walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [arg, init, next] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs(),
                   yield.getOperands())) {
      auto max = next.getDefiningOp<arith::MaxNumFOp>();
      DenseFPElementsAttr start;
      if (!isa<VectorType>(arg.getType()) || !max ||
          !matchPattern(init, m_Constant(&start)) || !start.isSplat() ||
          start.getSplatValue<APFloat>().isNaN() ||
          !llvm::is_contained(max->getOperands(), arg))
        continue;
      Value x = max.getLhs() == arg ? max.getRhs() : max.getLhs();
      rewriter.setInsertionPoint(max);
      Value greater = arith::CmpFOp::create(
          rewriter, max.getLoc(), arith::CmpFPredicate::OGT, x, arg);
      rewriter.replaceOpWithNewOp<arith::SelectOp>(max, greater, x, arg);
    }
  });
}

/// fast-maxima: the horizontal maxima and minima this pass made as a tree
/// of half-width ops (exact: they are associative and commutative); LLVM
/// expands a vector.reduction <maxnumf> lane by lane, a chain of 16
/// NaN-checked steps per row of f32.
static void treeReduceMaxima(RewriterBase &rewriter, Operation *root,
                             const llvm::SmallPtrSetImpl<Operation *> &old) {
  SmallVector<vector::ReductionOp> reductions;
  root->walk([&](vector::ReductionOp op) {
    vector::CombiningKind kind = op.getKind();
    int64_t n = op.getSourceVectorType().getNumElements();
    if (!old.contains(op) && op.getSourceVectorType().getRank() == 1 &&
        n > 1 && llvm::isPowerOf2_64(n) &&
        (kind == vector::CombiningKind::MAXNUMF ||
         kind == vector::CombiningKind::MINNUMF ||
         kind == vector::CombiningKind::MAXIMUMF ||
         kind == vector::CombiningKind::MINIMUMF))
      reductions.push_back(op);
  });
  for (vector::ReductionOp op : reductions) {
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value v = op.getVector();
    for (int64_t n = op.getSourceVectorType().getNumElements(); n > 1; n /= 2) {
      auto half = [&](int64_t offset) {
        return vector::ExtractStridedSliceOp::create(rewriter, loc, v, {offset},
                                                     {n / 2}, {1});
      };
      v = vector::makeArithReduction(rewriter, loc, op.getKind(), half(0),
                                     half(n / 2));
    }
    Value result = vector::ExtractOp::create(rewriter, loc, v, 0);
    if (Value acc = op.getAcc())
      result = vector::makeArithReduction(rewriter, loc, op.getKind(), result,
                                          acc);
    rewriter.replaceOp(op, result);
  }
}

namespace {
struct RlxVectorizeRowsPass
    : public rlx::impl::RlxVectorizeRowsBase<RlxVectorizeRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    int64_t bits = vectorBits > 0 ? static_cast<int64_t>(vectorBits)
                                  : rlx::hostVectorBits();

    // The horizontal reductions that were there before (not this pass's).
    llvm::SmallPtrSet<Operation *, 8> earlierReductions;
    root->walk([&](vector::ReductionOp op) { earlierReductions.insert(op); });

    IRRewriter rewriter(ctx);
    // The generics whose innermost loop is a few interleaved output phases
    // (VectorizeInterleaved.h); the rest below are row tiles.
    int64_t interleaved =
        rlx::vectorizeInterleavedGenerics(rewriter, root, bits);

    SmallVector<std::pair<linalg::GenericOp, int64_t>> candidates;
    root->walk([&](linalg::GenericOp op) {
      if (int64_t lanes = planLanes(op, bits))
        candidates.push_back({op, lanes});
    });
    if (candidates.empty()) {
      // Fold the constant phases of the interleaved clones.
      if (interleaved > 0)
        rlx::applyWithCanonicalization(root, RewritePatternSet(ctx));
      return;
    }
    RowLoopOptions rowLoop{parallelRows,
                           static_cast<int64_t>(parallelMinElements)};
    for (auto [op, lanes] : candidates) {
      unshareFills(rewriter, op);
      (void)tileRows(rewriter, op, lanes, reductionVectors, rowLoop,
                     columnRows, fastMaxima);
    }

    // Peeling made the main tiles' sizes constant: fold them into the types,
    // then vectorize the static tiles op by op (never a whole row or a row
    // block's insert_slice).
    rlx::canonicalizeTiles(root);
    rlx::vectorizeMarked(rewriter, root, kTile);

    // A column reduction's [rows, V] tile reduces its outer dim: lowered
    // elementwise, one vector add per row into the accumulator in row
    // order (the patterns below would transpose it to reduce the inner dim).
    SmallVector<Operation *> columnSums;
    root->walk([&](vector::MultiDimReductionOp op) {
      ArrayRef<int64_t> shape = op.getSourceVectorType().getShape();
      if (!op.isReducedDim(shape.size() - 1) && shape.back() > 1)
        columnSums.push_back(op);
    });
    if (!columnSums.empty()) {
      RewritePatternSet patterns(ctx);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerParallel);
      (void)applyOpPatternsGreedily(columnSums, std::move(patterns));
    }

    // Vector ops of rank 1 that convert-vector-to-llvm takes. A reduction
    // over unit dims only (a column sum's row tile: vector<1xV> -> <V>) is
    // folded into the elementwise combine first: the lowering patterns
    // below rewrite it back and forth forever.
    RewritePatternSet patterns(ctx);
    vector::MultiDimReductionOp::getCanonicalizationPatterns(patterns, ctx);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    (void)applyPatternsGreedily(root, std::move(patterns));
    reassociateHorizontalReductions(root, earlierReductions);
    if (fastMaxima)
      treeReduceMaxima(rewriter, root, earlierReductions);

    // The partial sums live in registers across the tile loop (after the
    // patterns: the transfers' indices are then the same constants): hoist the
    // read and write of the loops that carry only small static tensors (the
    // accumulators; a loop over a row's elements carries the row).
    SmallVector<scf::ForOp> loops;
    root->walk([&](scf::ForOp loop) {
      if (loop.getNumRegionIterArgs() == 0)
        return;
      for (Value arg : loop.getRegionIterArgs()) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || !type.hasStaticShape() || type.getNumElements() > 64)
          return;
      }
      loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      (void)hoistLoopInvariantSubsets(
          rewriter, cast<LoopLikeOpInterface>(loop.getOperation()));
    // The tensors the hoisted transfers went through are then only passed
    // along the loop and written once before being read back: fold them
    // away, so that no per-row buffer is left for them.
    rlx::applyWithCanonicalization(root, RewritePatternSet(ctx));
    if (fastMaxima)
      selectMaxima(rewriter, root);
  }
};
} // namespace
