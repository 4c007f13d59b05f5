//===- PrefetchSlices.cpp - the rlx-prefetch-slices pass ------------------===//
//
// A loop over the (n, c) planes of an argument (max_pool2d_backward's phase
// split of x[n, c]: 49 KB per plane) starts every iteration with a burst of
// cache misses: the hardware stream prefetchers stop at 4 KiB page
// boundaries and need a few misses to train again, so each plane's first
// read waits on memory while the previous plane's output loop had the
// memory bus to spare. This pass issues the next plane's lines as software
// prefetches spread over that output loop, so the misses overlap with
// computation.
//
// On bufferized code after expand-strided-metadata and lower-affine (a view
// is a memref.reinterpret_cast of its base buffer with an explicit offset),
// a slice qualifies when:
//   - it is a memref.reinterpret_cast of a function argument of identity
//     layout (directly or of its extract_strided_metadata base buffer),
//     directly in the body of an scf.for, scf.parallel or omp.loop_nest;
//   - it views S contiguous elements (static row-major sizes and strides),
//     min-bytes <= S * element bytes <= max-bytes;
//   - its offset is affine in the loop's innermost induction variable and
//     the coefficient times the step is S: iteration i + 1 reads the S
//     elements right after iteration i's (across the last dim of a
//     collapsed nest as well, since the slices are consecutive in memory);
//   - an scf.for with a static trip count T follows the slice's last
//     reader in the loop body.
// Each of the T iterations then prefetches ceil(lines / T) of the next
// slice's 64-byte lines (memref.prefetch read, locality 3), each address
// clamped to the argument's elements.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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
/// The loop whose body holds a slice, with the induction variable and step
/// of its innermost dim.
struct SliceLoop {
  Operation *loop;
  Block *body;
  Value iv, step;
};
} // namespace

static std::optional<SliceLoop> loopAround(Operation *op) {
  Operation *parent = op->getParentOp();
  if (auto loop = dyn_cast_if_present<scf::ForOp>(parent))
    return SliceLoop{loop, loop.getBody(), loop.getInductionVar(),
                     loop.getStep()};
  if (auto loop = dyn_cast_if_present<scf::ParallelOp>(parent))
    return SliceLoop{loop, loop.getBody(), loop.getInductionVars().back(),
                     loop.getStep().back()};
  if (auto loop = dyn_cast_if_present<omp::LoopNestOp>(parent)) {
    Block *body = &loop.getRegion().front();
    return SliceLoop{loop, body, body->getArguments().back(),
                     loop.getLoopSteps().back()};
  }
  return std::nullopt;
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
    Operation *owner = cast<BlockArgument>(value).getOwner()->getParentOp();
    if (owner == at.loop || !at.loop->isAncestor(owner))
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

/// The elements of a contiguous row-major view of static sizes and
/// strides; nullopt otherwise.
static std::optional<int64_t> contiguousElements(memref::ReinterpretCastOp cast) {
  std::optional<SmallVector<int64_t>> sizes =
      getConstantIntValues(cast.getMixedSizes());
  std::optional<SmallVector<int64_t>> strides =
      getConstantIntValues(cast.getMixedStrides());
  if (!sizes || !strides)
    return std::nullopt;
  int64_t elements = 1;
  for (int64_t dim = sizes->size() - 1; dim >= 0; --dim) {
    if ((*sizes)[dim] != 1 && (*strides)[dim] != elements)
      return std::nullopt;
    elements *= (*sizes)[dim];
  }
  return elements;
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

/// The first scf.for with a static trip count of at least 1 in the ops
/// after `reader` in its block (outermost first), or null.
static scf::ForOp loopAfter(Operation *reader) {
  for (Operation *op = reader->getNextNode(); op; op = op->getNextNode()) {
    scf::ForOp found;
    op->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->isZero())
        return WalkResult::advance();
      found = loop;
      return WalkResult::interrupt();
    });
    if (found)
      return found;
  }
  return nullptr;
}

/// At the start of each iteration of `spread`, prefetches its share of the
/// lines of the `elements` after `offset` in `source` (the base buffer or
/// argument that the slice views, of `argument`'s extent).
static void prefetchNext(OpBuilder &b, scf::ForOp spread, Value source,
                         Value argument, Value offset, int64_t elements,
                         int64_t elementBytes) {
  Location loc = spread.getLoc();
  b.setInsertionPointToStart(spread.getBody());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  int64_t trips = spread.getStaticTripCount()->getZExtValue();
  int64_t lineElements = std::max<int64_t>(1, kLineBytes / elementBytes);
  int64_t lines = llvm::divideCeil(elements, lineElements);
  int64_t linesPerTrip = llvm::divideCeil(lines, trips);

  // A flat view of the argument, and its last element.
  auto type = cast<MemRefType>(argument.getType());
  OpFoldResult extent;
  if (type.hasStaticShape()) {
    extent = b.getIndexAttr(type.getNumElements());
  } else {
    Value product = index(1);
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      product = arith::MulIOp::create(
          b, loc, product, memref::DimOp::create(b, loc, argument, dim));
    extent = product;
  }
  auto flatType = MemRefType::get(
      {type.hasStaticShape() ? type.getNumElements() : ShapedType::kDynamic},
      type.getElementType());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, source, /*offset=*/b.getIndexAttr(0),
      /*sizes=*/ArrayRef<OpFoldResult>{extent},
      /*strides=*/ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  Value last = type.hasStaticShape()
                   ? index(type.getNumElements() - 1).getResult()
                   : arith::SubIOp::create(b, loc, cast<Value>(extent),
                                           index(1))
                         .getResult();

  // This trip's first line: offset + S + trip * linesPerTrip lines.
  Value trip = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, spread.getInductionVar(),
                            spread.getLowerBound()),
      spread.getStep());
  Value first = arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, offset, index(elements)),
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
          last),
      index(0));
  memref::PrefetchOp::create(b, loc, flat, ValueRange{address},
                             /*isWrite=*/false, /*localityHint=*/3,
                             /*isDataCache=*/true);
}

namespace {
struct RlxPrefetchSlicesPass
    : public rlx::impl::RlxPrefetchSlicesBase<RlxPrefetchSlicesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::ReinterpretCastOp> slices;
    getOperation()->walk(
        [&](memref::ReinterpretCastOp cast) { slices.push_back(cast); });
    OpBuilder b(&getContext());
    for (memref::ReinterpretCastOp slice : slices) {
      Value argument = argumentViewed(slice);
      std::optional<SliceLoop> loop = loopAround(slice);
      std::optional<int64_t> elements = contiguousElements(slice);
      if (!argument || !loop || !elements)
        continue;
      Type element = slice.getType().getElementType();
      if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
        continue;
      int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
      int64_t bytes = *elements * elementBytes;
      if (bytes < minBytes || bytes > maxBytes)
        continue;
      APInt step;
      OpFoldResult offset = slice.getMixedOffsets()[0];
      std::optional<int64_t> coefficient;
      if (auto value = dyn_cast<Value>(offset))
        coefficient = coefficientOf(value, *loop);
      if (!coefficient || !matchPattern(loop->step, m_ConstantInt(&step)) ||
          *coefficient * step.getSExtValue() != *elements)
        continue;
      Operation *reader = lastReaderIn(loop->body, slice.getResult());
      scf::ForOp spread = reader ? loopAfter(reader) : nullptr;
      if (!spread)
        continue;
      prefetchNext(b, spread, slice.getSource(), argument, cast<Value>(offset),
                   *elements, elementBytes);
    }
  }
};
} // namespace
