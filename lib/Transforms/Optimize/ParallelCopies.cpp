//===- ParallelCopies.cpp - large copies outside loops, on threads --------===//
//
// The contractions of rlx-optimize-contractions read copies made before
// their loops: a convolution's zero-padded input, dy transposed with n
// last for a weight gradient, a strided input split into stride phases.
// Each is a full pass over a tensor of several MB, and was serial before
// the parallel kernel (a tenth to a fifth of a convolution's 2-thread
// time). parallelizeLargeCopies makes each an scf.forall over its leading
// dims, in place once bufferized; and so a large zero fill that starts a
// scatter loop, and the strided copies of a channels-last input gradient's
// stride phases into dx. vectorizeTransposes turns every transpose of the last
// two dims (those copies, and a head's keys inside attention's loop) into
// vector.transposes of register squares.
//
//===----------------------------------------------------------------------===//
#include "Optimize/ParallelCopies.h"
#include "Optimize/Tiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

/// A large tensor.pad outside any loop, whose leading dims are not padded,
/// as an scf.forall over those dims: each iteration fills its slice of the
/// result and copies its slice of the input into the slice's interior, in
/// place once bufferized. Serial, the padding of a dense convolution's
/// input (7 MB) was about a tenth of its 2-thread time.
static void padInParallel(RewriterBase &rewriter, tensor::PadOp pad) {
  RankedTensorType type = pad.getResultType();
  RankedTensorType sourceType = pad.getSourceType();
  Value value = pad.getConstantPaddingValue();
  Attribute constant;
  std::optional<SmallVector<int64_t>> low =
      getConstantIntValues(pad.getMixedLowPad());
  if (!value || !matchPattern(value, m_Constant(&constant)) || !low ||
      !type.hasStaticShape() || !sourceType.hasStaticShape() ||
      type.getNumElements() < (1 << 18) ||
      !isa<func::FuncOp>(pad->getParentOp()))
    return;
  // The leading dims that neither side pads.
  int64_t rank = type.getRank(), outer = 0;
  while (outer < rank && type.getDimSize(outer) == sourceType.getDimSize(outer))
    ++outer;
  if (outer == 0 || outer == rank)
    return;
  Location loc = pad.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(pad);
  Value padValue =
      arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(constant));
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  auto forall = scf::ForallOp::create(
      rewriter, loc,
      getAsIndexOpFoldResult(ctx, type.getShape().take_front(outer)),
      ValueRange{empty}, std::nullopt);
  rewriter.setInsertionPoint(forall.getTerminator());
  // [i..., 0...] with sizes [1..., the rest of `shape`].
  SmallVector<OpFoldResult> offsets =
      getAsOpFoldResult(ValueRange(forall.getInductionVars()));
  offsets.append(rank - outer, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
  auto sizesOf = [&](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> sizes(outer, 1);
    llvm::append_range(sizes, shape.drop_front(outer));
    return getAsIndexOpFoldResult(ctx, sizes);
  };
  Value slice = tensor::ExtractSliceOp::create(
      rewriter, loc, forall.getRegionIterArgs()[0], offsets,
      sizesOf(type.getShape()), strides);
  Value filled =
      linalg::FillOp::create(rewriter, loc, padValue, slice).getResult(0);
  Value source =
      tensor::ExtractSliceOp::create(rewriter, loc, pad.getSource(), offsets,
                                     sizesOf(sourceType.getShape()), strides);
  SmallVector<OpFoldResult> interior(outer, rewriter.getIndexAttr(0));
  llvm::append_range(
      interior, getAsIndexOpFoldResult(ctx, ArrayRef(*low).drop_front(outer)));
  Value done =
      tensor::InsertSliceOp::create(rewriter, loc, source, filled, interior,
                                    sizesOf(sourceType.getShape()), strides);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, done,
                                        forall.getRegionIterArgs()[0], offsets,
                                        sizesOf(type.getShape()), strides);
  rewriter.replaceOp(pad, forall.getResult(0));
}

/// A large tensor.insert_slice with strides in its last two dims, outside
/// any loop (a stride phase of a channels-last conv2d_backward_input copied
/// into every s-th row and column of dx), as an scf.forall over its leading
/// dims: a strided copy lowers to scalar loops, and was one serial pass.
static void stridedInsertInParallel(RewriterBase &rewriter,
                                    tensor::InsertSliceOp op) {
  RankedTensorType type = op.getSourceType();
  int64_t rank = type.getRank(), outer = rank - 2;
  std::optional<SmallVector<int64_t>> offsets =
      getConstantIntValues(op.getMixedOffsets());
  std::optional<SmallVector<int64_t>> strides =
      getConstantIntValues(op.getMixedStrides());
  if (!isa<func::FuncOp>(op->getParentOp()) || !type.hasStaticShape() ||
      rank < 3 || rank != op.getResultType().getRank() ||
      type.getNumElements() < (1 << 18) || !offsets || !strides ||
      op.hasUnitStride())
    return;
  for (int64_t d = 0; d < outer; ++d)
    if ((*offsets)[d] != 0 || (*strides)[d] != 1)
      return;
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  auto forall = scf::ForallOp::create(
      rewriter, loc,
      getAsIndexOpFoldResult(ctx, type.getShape().take_front(outer)),
      ValueRange{op.getDest()}, std::nullopt);
  rewriter.setInsertionPoint(forall.getTerminator());
  // Source [i..., 0, 0] and destination [i..., offsets of the last two].
  SmallVector<OpFoldResult> index =
      getAsOpFoldResult(ValueRange(forall.getInductionVars()));
  SmallVector<OpFoldResult> sourceOffsets = index, destOffsets = index;
  sourceOffsets.append(2, rewriter.getIndexAttr(0));
  llvm::append_range(destOffsets,
                     ArrayRef(op.getMixedOffsets()).drop_front(outer));
  SmallVector<int64_t> sizes(outer, 1);
  llvm::append_range(sizes, type.getShape().drop_front(outer));
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  Value part = tensor::ExtractSliceOp::create(
      rewriter, loc, op.getSource(), sourceOffsets,
      getAsIndexOpFoldResult(ctx, sizes), ones);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      rewriter, loc, part, forall.getRegionIterArgs()[0], destOffsets,
      getAsIndexOpFoldResult(ctx, sizes), op.getMixedStrides());
  rewriter.replaceOp(op, forall.getResult(0));
}

/// Marks the lanes x lanes squares of a transpose to vectorize.
static constexpr StringLiteral kTransposeSquare = "rlx.transpose_square";

/// Whether `op` is a large pass over memory outside any loop: one static
/// result of rank >= `minRank` and at least 2^18 elements, in the function
/// body.
static bool isLargeOutsideLoops(linalg::LinalgOp op, int64_t minRank = 3) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      !isa<func::FuncOp>(op->getParentOp()))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.hasStaticShape() && type.getRank() >= minRank &&
         type.getNumElements() >= (1 << 18);
}

/// Tiles the leading loops of the all-parallel `op` (all but the last two)
/// by 1 on an scf.forall.
static FailureOr<scf::SCFTilingResult>
tileLeadingLoopsOnThreads(RewriterBase &rewriter, linalg::LinalgOp op) {
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  std::fill(sizes.begin(), sizes.end() - 2, 1);
  return rlx::tileAndReplace(rewriter, op, sizes,
                             scf::SCFTilingOptions::LoopType::ForallOp);
}

/// A strided copy (a generic that only yields its one input, whose last
/// index is not the innermost loop: the stride-phase split of a strided
/// convolution's input) outside any loop as an scf.forall over its leading
/// loops. rlx-vectorize-rows leaves it alone (no unit-stride row), so it
/// would otherwise be one serial pass.
static void stridedCopyInParallel(RewriterBase &rewriter,
                                  linalg::GenericOp op) {
  if (!isLargeOutsideLoops(op) || op.getNumDpsInputs() != 1 ||
      op.getNumReductionLoops() != 0 ||
      !llvm::hasSingleElement(op.getBlock()->getOperations()))
    return;
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (yield.getValues()[0] != op.getBlock()->getArgument(0) ||
      in.getNumResults() == 0 ||
      in.getResults().back() ==
          getAffineDimExpr(op.getNumLoops() - 1, op.getContext()))
    return;
  (void)tileLeadingLoopsOnThreads(rewriter, op);
}

/// A large linalg.fill outside any loop that only starts the accumulators of
/// scf.for or scf.forall loops (a gather_backward's scatter, whose blocks of
/// table rows are an scf.forall on a large table: its 65 MB zeroed table was
/// the whole 2-thread time, with the page faults of a fresh allocation) as
/// an scf.forall over all but its last dim, so both threads zero (and fault
/// in) their part. A fill another linalg op reads is left to the fusions.
static void fillInParallel(RewriterBase &rewriter, linalg::FillOp op) {
  if (!isLargeOutsideLoops(op, /*minRank=*/2) ||
      !llvm::all_of(op->getResult(0).getUses(), [](OpOperand &use) {
        return isa<scf::ForOp, scf::ForallOp>(use.getOwner());
      }))
    return;
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes.back() = 0;
  (void)rlx::tileAndReplace(rewriter, op, sizes,
                            scf::SCFTilingOptions::LoopType::ForallOp);
}

/// A large linalg.transpose outside any loop as an scf.forall over its
/// leading result dims (all but the last two), one tile per index.
static void transposeInParallel(RewriterBase &rewriter,
                                linalg::TransposeOp op) {
  if (isLargeOutsideLoops(op))
    (void)tileLeadingLoopsOnThreads(rewriter, op);
}

/// A static linalg.transpose that swaps the last two dims (the input's rows
/// become the result's columns: [n, c, h, w] -> [n, h, w, c], or one head's
/// keys [s, d] -> [d, s] inside attention's loop over heads) cut into
/// lanes x lanes squares, every leading index its own tile and the edges
/// peeled, marked kTransposeSquare. Vectorized, a square is a
/// vector.transpose of registers, where the scalar loops gathered every
/// element (a fifth of a convolution weight gradient's time; LLVM turned
/// attention's key transpose into scatters, a fifth of its wrt=value time).
static void transposeInSquares(RewriterBase &rewriter, linalg::TransposeOp op,
                               int64_t vectorBits) {
  // On buffers (user IR) there is no result to tile.
  if (!op.hasPureTensorSemantics())
    return;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = type.getRank();
  ArrayRef<int64_t> perm = op.getPermutation();
  // Squares only of integers and floats: an index (or complex) element has
  // no bit width to count lanes by.
  Type element = type.getElementType();
  if (!type.hasStaticShape() || rank < 2 || perm[rank - 2] != rank - 1 ||
      !element.isIntOrFloat())
    return;
  int64_t lanes = vectorBits / element.getIntOrFloatBitWidth();
  if (lanes < 2 || type.getDimSize(rank - 2) < lanes ||
      type.getDimSize(rank - 1) < lanes)
    return;
  SmallVector<int64_t> square(rank, 1);
  square[rank - 2] = square[rank - 1] = lanes;
  FailureOr<scf::SCFTilingResult> squares = rlx::tileAndReplace(
      rewriter, op, square, scf::SCFTilingOptions::LoopType::ForOp);
  if (failed(squares))
    return;
  squares->tiledOps.back()->setAttr(kTransposeSquare, rewriter.getUnitAttr());
  for (LoopLikeOpInterface loop : llvm::reverse(squares->loops)) {
    scf::ForOp partial;
    if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation()))
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
}

void mlir::rlx::vectorizeTransposes(RewriterBase &rewriter, Operation *root,
                                    int64_t vectorBits) {
  SmallVector<linalg::TransposeOp> transposes;
  root->walk([&](linalg::TransposeOp op) { transposes.push_back(op); });
  for (linalg::TransposeOp op : transposes)
    transposeInSquares(rewriter, op, vectorBits);
  // Fold the peeled squares' sizes into their types, then vectorize them.
  rlx::canonicalizeTiles(root);
  // Not an edge one row or column wide (25 rows are 3 squares of 8 and a
  // row of 1): its vector<1xN> -> vector<Nx1> transpose is a shape_cast,
  // which rlx-vectorize-rows' lowering patterns then rewrite back and forth
  // forever. It stays a (scalar) linalg.transpose.
  root->walk([&](linalg::TransposeOp op) {
    if (!op->hasAttr(kTransposeSquare) || op->getNumResults() != 1)
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (type && (type.getDimSize(type.getRank() - 1) == 1 ||
                 type.getDimSize(type.getRank() - 2) == 1))
      op->removeAttr(kTransposeSquare);
  });
  rlx::vectorizeMarked(rewriter, root, kTransposeSquare);
}

void mlir::rlx::parallelizeLargeCopies(RewriterBase &rewriter,
                                       Operation *root) {
  SmallVector<tensor::PadOp> pads;
  root->walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  for (tensor::PadOp pad : pads)
    padInParallel(rewriter, pad);
  SmallVector<tensor::InsertSliceOp> inserts;
  root->walk([&](tensor::InsertSliceOp op) { inserts.push_back(op); });
  for (tensor::InsertSliceOp op : inserts)
    stridedInsertInParallel(rewriter, op);
  SmallVector<linalg::TransposeOp> transposes;
  root->walk([&](linalg::TransposeOp op) { transposes.push_back(op); });
  for (linalg::TransposeOp op : transposes)
    transposeInParallel(rewriter, op);
  SmallVector<linalg::FillOp> fills;
  root->walk([&](linalg::FillOp op) { fills.push_back(op); });
  for (linalg::FillOp op : fills)
    fillInParallel(rewriter, op);
  SmallVector<linalg::GenericOp> copies;
  root->walk([&](linalg::GenericOp op) { copies.push_back(op); });
  for (linalg::GenericOp op : copies)
    stridedCopyInParallel(rewriter, op);
}
