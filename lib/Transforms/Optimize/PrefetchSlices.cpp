//===- PrefetchSlices.cpp - the rlx-prefetch-slices pass ------------------===//
//
// A parallel loop over blocks of an argument (max_pool2d_backward's planes
// of x, 49 KiB each; cross-entropy's blocks of 32 rows of logits, 125 KiB)
// starts every iteration with a burst of cache misses, and then computes
// from cache while the memory bus idles: the hardware stream prefetchers
// stop at 4 KiB page boundaries and do not run ahead into the next block.
// This pass issues the next block's lines as software prefetches spread
// over the loops that follow the block's last read, so that its misses
// overlap with the current block's computation and writes.
//
// On bufferized code after expand-strided-metadata and lower-affine (every
// view is a memref.reinterpret_cast with an explicit offset), for each
// scf.for, scf.parallel or omp.loop_nest L and function argument A
// (identity layout):
//   - every view of A inside L (at any depth) has an offset that is affine
//     in L's innermost induction variable with the same coefficient c
//     (the induction variables of loops inside L walk within an iteration
//     and count as 0): iteration i + 1 reads the E = c * step elements
//     after iteration i's;
//   - min-bytes <= E * element bytes <= max-bytes;
//   - K >= 1 outermost scf.for loops with a static trip count follow the
//     last op of L's body that reads A.
// The next block starts at the first view's offset with the inner
// induction variables at their lower bounds, plus E. Each of the K loops
// prefetches a K-th of its 64-byte lines (memref.prefetch read, locality
// 3), its share split evenly over its trips; every address is clamped to
// A's elements. Only a hint: no result changes.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXPREFETCHSLICES
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// A cache line: the unit of a prefetch.
static constexpr int64_t kLineBytes = 64;
/// How deep coefficientOf looks through index arithmetic.
static constexpr unsigned kMaxDepth = 16;

namespace {
/// A loop, with the induction variable and step of its innermost dim.
struct SliceLoop {
  Operation *loop;
  Block *body;
  Value iv, step;
};
} // namespace

static std::optional<SliceLoop> sliceLoopOf(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return SliceLoop{loop, loop.getBody(), loop.getInductionVar(),
                     loop.getStep()};
  if (auto loop = dyn_cast<scf::ParallelOp>(op))
    return SliceLoop{loop, loop.getBody(), loop.getInductionVars().back(),
                     loop.getStep().back()};
  if (auto loop = dyn_cast<omp::LoopNestOp>(op)) {
    Block *body = &loop.getRegion().front();
    return SliceLoop{loop, body, body->getArguments().back(),
                     loop.getLoopSteps().back()};
  }
  return std::nullopt;
}

/// The elements of one 64-byte line.
static int64_t lineElementsOf(int64_t elementBytes) {
  return std::max<int64_t>(1, kLineBytes / elementBytes);
}

/// The lower bound of the scf.for or scf.parallel loop whose induction
/// variable `arg` is; null for any other block argument.
static Value inductionLowerBound(BlockArgument arg) {
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    return arg == loop.getInductionVar() ? loop.getLowerBound() : nullptr;
  if (auto loop = dyn_cast<scf::ParallelOp>(owner))
    return arg.getArgNumber() < loop.getNumLoops()
               ? loop.getLowerBound()[arg.getArgNumber()]
               : nullptr;
  return nullptr;
}

/// c when `value` = c * iv + (terms that do not change with iv inside
/// `loop`), from index arithmetic; nullopt when that is not known.
static std::optional<int64_t> coefficientOf(Value value, const SliceLoop &at,
                                            unsigned depth = 0) {
  if (value == at.iv)
    return 1;
  if (depth > kMaxDepth)
    return std::nullopt;
  Operation *op = value.getDefiningOp();
  if (!op) {
    // The other induction variables of a collapsed nest, and values from
    // outside the loop, are fixed while iv steps.
    auto arg = cast<BlockArgument>(value);
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == at.loop || !at.loop->isAncestor(owner))
      return 0;
    // The induction variables of loops inside: they walk one iteration's
    // block of the slice.
    if (inductionLowerBound(arg))
      return 0;
    return std::nullopt;
  }
  if (!at.loop->isAncestor(op) || matchPattern(value, m_Constant()))
    return 0;
  auto operand = [&](unsigned i) {
    return coefficientOf(op->getOperand(i), at, depth + 1);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return operand(0);
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    std::optional<int64_t> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    return isa<arith::AddIOp>(op) ? *lhs + *rhs : *lhs - *rhs;
  }
  if (isa<arith::MulIOp>(op)) {
    for (unsigned i : {0u, 1u}) {
      APInt factor;
      if (!matchPattern(op->getOperand(1 - i), m_ConstantInt(&factor)))
        continue;
      std::optional<int64_t> coefficient = operand(i);
      if (!coefficient)
        return std::nullopt;
      return *coefficient * factor.getSExtValue();
    }
  }
  return std::nullopt;
}

/// The function argument (identity layout) that `cast` views, or null.
static Value argumentViewed(memref::ReinterpretCastOp cast) {
  Value source = cast.getSource();
  if (auto metadata = source.getDefiningOp<memref::ExtractStridedMetadataOp>())
    source = metadata.getSource();
  auto arg = dyn_cast<BlockArgument>(source);
  if (!arg || !isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    return nullptr;
  auto type = dyn_cast<MemRefType>(arg.getType());
  return type && type.getLayout().isIdentity() ? arg : nullptr;
}

/// The last op of `body` that reads `view` or a view of it.
static Operation *lastReaderIn(Block *body, Value view) {
  Operation *last = nullptr;
  SmallVector<Value> work = {view};
  while (!work.empty()) {
    Value buffer = work.pop_back_val();
    for (Operation *user : buffer.getUsers()) {
      if (isa<ViewLikeOpInterface, memref::ExtractStridedMetadataOp>(user)) {
        // The base buffer of a view's metadata is what its sub-views view.
        work.push_back(user->getResult(0));
        continue;
      }
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (inBody && (!last || last->isBeforeInBlock(inBody)))
        last = inBody;
    }
  }
  return last;
}

/// For each op after `reader` in its block, the first (outermost) scf.for
/// inside it with a static trip count of at least 1.
static SmallVector<scf::ForOp> loopsAfter(Operation *reader) {
  SmallVector<scf::ForOp> loops;
  for (Operation *op = reader->getNextNode(); op; op = op->getNextNode()) {
    op->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->isZero())
        return WalkResult::advance();
      loops.push_back(loop);
      return WalkResult::interrupt();
    });
  }
  return loops;
}

namespace {
/// A flat view of an argument (identity layout) and its last element: what
/// the prefetches address, clamped to it.
struct FlatView {
  memref::ReinterpretCastOp view;
  Value last;
};
} // namespace

/// Builds `argument`'s FlatView at b's insertion point.
static FlatView buildFlatView(OpBuilder &b, Location loc, Value argument) {
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  auto type = cast<MemRefType>(argument.getType());
  OpFoldResult extent;
  Value last;
  if (type.hasStaticShape()) {
    extent = b.getIndexAttr(type.getNumElements());
    last = index(type.getNumElements() - 1);
  } else {
    Value product = index(1);
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      product = arith::MulIOp::create(
          b, loc, product, memref::DimOp::create(b, loc, argument, dim));
    extent = product;
    last = arith::SubIOp::create(b, loc, product, index(1));
  }
  auto flatType = MemRefType::get(
      {type.hasStaticShape() ? type.getNumElements() : ShapedType::kDynamic},
      type.getElementType());
  auto view = memref::ReinterpretCastOp::create(
      b, loc, flatType, argument, /*offset=*/b.getIndexAttr(0),
      /*sizes=*/ArrayRef<OpFoldResult>{extent},
      /*strides=*/ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return {view, last};
}

/// At the start of each iteration of `spread`, prefetches its share of the
/// lines of the `elements` from element `from` of `flat`.
static void prefetchLines(OpBuilder &b, scf::ForOp spread, FlatView flat,
                          Value from, int64_t elements, int64_t elementBytes) {
  Location loc = spread.getLoc();
  b.setInsertionPointToStart(spread.getBody());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  int64_t trips = spread.getStaticTripCount()->getZExtValue();
  int64_t lineElements = lineElementsOf(elementBytes);
  int64_t lines = llvm::divideCeil(elements, lineElements);
  int64_t linesPerTrip = llvm::divideCeil(lines, trips);

  // This trip's first line: from + trip * linesPerTrip lines.
  Value trip = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, spread.getInductionVar(),
                            spread.getLowerBound()),
      spread.getStep());
  Value first = arith::AddIOp::create(
      b, loc, from,
      arith::MulIOp::create(b, loc, trip,
                            index(linesPerTrip * lineElements)));
  auto lineLoop =
      scf::ForOp::create(b, loc, index(0), index(linesPerTrip * lineElements),
                         index(lineElements));
  b.setInsertionPointToStart(lineLoop.getBody());
  // Clamped to [0, last] (an empty argument's loop over it may still run).
  Value address = arith::MaxSIOp::create(
      b, loc,
      arith::MinSIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, first, lineLoop.getInductionVar()),
          flat.last),
      index(0));
  memref::PrefetchOp::create(b, loc, flat.view, ValueRange{address},
                             /*isWrite=*/false, /*localityHint=*/3,
                             /*isDataCache=*/true);
}

/// `value` at the first iteration of the loops inside `at` (their
/// induction variables at their lower bounds), built before `before`; null
/// when it is not index arithmetic of values that dominate `before`.
static Value atBlockStart(OpBuilder &b, Value value, Operation *before,
                          DominanceInfo &dominance, unsigned depth = 0) {
  if (dominance.properlyDominates(value, before))
    return value;
  if (depth > kMaxDepth)
    return nullptr;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Value lowerBound = inductionLowerBound(arg);
    return lowerBound
               ? atBlockStart(b, lowerBound, before, dominance, depth + 1)
               : nullptr;
  }
  Operation *op = value.getDefiningOp();
  if (!isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
           arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return nullptr;
  IRMapping map;
  for (Value operand : op->getOperands()) {
    Value rebuilt = atBlockStart(b, operand, before, dominance, depth + 1);
    if (!rebuilt)
      return nullptr;
    map.map(operand, rebuilt);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(before);
  return b.clone(*op, map)->getResult(0);
}

/// One iteration's block of the argument that `casts` view: c * step
/// elements, when every view's offset has the same coefficient c.
static std::optional<int64_t>
blockElements(ArrayRef<memref::ReinterpretCastOp> casts, const SliceLoop &at,
              int64_t step) {
  std::optional<int64_t> coefficient;
  for (memref::ReinterpretCastOp cast : casts) {
    auto offset = dyn_cast<Value>(cast.getMixedOffsets()[0]);
    std::optional<int64_t> c =
        offset ? coefficientOf(offset, at) : std::nullopt;
    if (!c || (coefficient && *coefficient != *c))
      return std::nullopt;
    coefficient = c;
  }
  if (!coefficient)
    return std::nullopt;
  return *coefficient * step;
}

/// Prefetches, in `at`'s body, the next iteration's block of each argument
/// that qualifies (see the file comment). `flatViews` are the views that
/// earlier prefetches made, which read nothing.
static void prefetchNextBlocks(const SliceLoop &at, int64_t minBytes,
                               int64_t maxBytes, DominanceInfo &dominance,
                               DenseSet<Operation *> &flatViews) {
  APInt step;
  if (!matchPattern(at.step, m_ConstantInt(&step)))
    return;
  llvm::MapVector<Value, SmallVector<memref::ReinterpretCastOp>> views;
  at.loop->walk([&](memref::ReinterpretCastOp cast) {
    Value argument = argumentViewed(cast);
    if (argument && !flatViews.contains(cast))
      views[argument].push_back(cast);
  });
  OpBuilder b(at.loop->getContext());
  for (auto &[argument, casts] : views) {
    std::optional<int64_t> block =
        blockElements(casts, at, step.getSExtValue());
    Type element = cast<MemRefType>(argument.getType()).getElementType();
    if (!block || *block <= 0 || !element.isIntOrFloat() ||
        element.getIntOrFloatBitWidth() % 8)
      continue;
    int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    int64_t bytes = *block * elementBytes;
    if (bytes < minBytes || bytes > maxBytes)
      continue;

    Operation *reader = nullptr;
    for (memref::ReinterpretCastOp cast : casts) {
      Operation *last = lastReaderIn(at.body, cast.getResult());
      if (last && (!reader || reader->isBeforeInBlock(last)))
        reader = last;
    }
    SmallVector<scf::ForOp> spread =
        reader ? loopsAfter(reader) : SmallVector<scf::ForOp>();
    if (spread.empty())
      continue;
    // This block's start, where every loop of the spread can use it.
    Operation *before = at.body->findAncestorOpInBlock(*spread.front());
    Value start = atBlockStart(b, cast<Value>(casts.front().getMixedOffsets()[0]),
                               before, dominance);
    if (!start)
      continue;
    b.setInsertionPoint(before);
    FlatView flat = buildFlatView(b, before->getLoc(), argument);
    flatViews.insert(flat.view);
    int64_t share = llvm::alignTo(llvm::divideCeil(*block, spread.size()),
                                  lineElementsOf(elementBytes));
    for (auto [k, loop] : llvm::enumerate(spread)) {
      int64_t skip = static_cast<int64_t>(k) * share;
      if (skip >= *block)
        break;
      b.setInsertionPoint(before);
      Value from = arith::AddIOp::create(
          b, loop.getLoc(), start,
          arith::ConstantIndexOp::create(b, loop.getLoc(), *block + skip));
      prefetchLines(b, loop, flat, from, std::min(share, *block - skip),
                    elementBytes);
    }
  }
}

namespace {
struct RlxPrefetchSlicesPass
    : public rlx::impl::RlxPrefetchSlicesBase<RlxPrefetchSlicesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<SliceLoop> loops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (std::optional<SliceLoop> loop = sliceLoopOf(op))
        loops.push_back(*loop);
    });
    DominanceInfo dominance(getOperation());
    DenseSet<Operation *> flatViews;
    for (const SliceLoop &loop : loops)
      prefetchNextBlocks(loop, minBytes, maxBytes, dominance, flatViews);
  }
};
} // namespace
