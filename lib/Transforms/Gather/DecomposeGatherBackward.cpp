//===- DecomposeGatherBackward.cpp - Gather gradients ---------------------===//
//
// The table gradient is a scatter-add of the rows of dy:
//
//   dtable = 0
//   for n in [0, N):                      N = #indices (flattened)
//     v = indices[n]
//     if 0 <= v < V:
//       dtable[p..., v, q...] += dy[p..., n, q...]     (one slice)
//
// an scf.for over the indices carrying dtable, each step a read-modify-write
// of one slice (tensor.extract_slice / linalg.generic / insert_slice). Work is
// O(#indices x slice size); duplicates accumulate in index order; an
// out-of-range index is skipped before any slice is taken.
//
// A table of at least 2^20 elements (or with a dynamic dim) outside any loop
// has its rows split into up to 16 blocks on an scf.forall, after one zero
// fill: each block walks all the indices and adds the rows of dy that fall
// in it. The blocks are set by V, not by the thread count, and each row
// still sums in index order, so the result is the same for any thread
// count (the embedding gradient 32000x512, 4096 indices: 2 threads 2.1 ->
// 1.3-1.5 ms, 1 thread unchanged at ~2.0).
//
// PyTorch's embedding_backward options: with `padding_idx` the step also
// skips v == padding_idx; with `scale_grad_by_freq` a first scf.for counts
// the occurrences of each index into counts[V] and each step adds
// dy[.., n, ..] * (1 / counts[v]).
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// dtable[.., v, ..] += dy[.., n, ..] for every n with v = indices[n] in
/// range.
static FailureOr<SmallVector<Value>>
decomposeGatherBackward(RewriterBase &rewriter, GatherBackwardOp op,
                        const DecompositionOptions &) {
  Value dy = op.getDy(), indices = op.getIndices();
  auto resultType = cast<RankedTensorType>(op.getDtable().getType());
  auto dyType = cast<RankedTensorType>(dy.getType());
  int64_t rank = resultType.getRank();
  int64_t k = cast<RankedTensorType>(indices.getType()).getRank();
  int64_t a = verifiedAxis(op.getAxis(), rank);
  int64_t length = resultType.getDimSize(a);
  if (ShapedType::isDynamic(length))
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "the gathered dimension " << a
           << " of the result type is dynamic; its length (the number of "
              "table rows) is known only from the result type and must be "
              "static";
    });

  Location loc = op.getLoc();
  Type elementType = resultType.getElementType();
  // Dims of dtable: from the result type where static, else from dy.
  SmallVector<OpFoldResult> dySizes = tensor::getMixedSizes(rewriter, loc, dy);
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t s = resultType.getDimSize(d);
    if (!ShapedType::isDynamic(s))
      sizes.push_back(rewriter.getIndexAttr(s));
    else
      sizes.push_back(dySizes[d < a ? d : d + k - 1]);
  }
  Value zeros =
      filled(rewriter, loc,
             tensor::EmptyOp::create(rewriter, loc, sizes, elementType), 0.0);

  // Flatten the indices to [N] and their dims of dy to one, so that dy is
  // [p..., N, q...] like dtable's [p..., V, q...]. Rank-0 indices: N = 1 and
  // the slice of dy is dy itself.
  Value flatIndices = indices, flatDy = dy;
  Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
  if (k > 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < k; ++d)
      all.push_back(d);
    flatIndices =
        tensor::CollapseShapeOp::create(rewriter, loc, indices, {all});
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < a; ++d)
      groups.push_back({d});
    ReassociationIndices middle;
    for (int64_t d = a; d < a + k; ++d)
      middle.push_back(d);
    groups.push_back(middle);
    for (int64_t d = a + k; d < dyType.getRank(); ++d)
      groups.push_back({d});
    flatDy = tensor::CollapseShapeOp::create(rewriter, loc, dy, groups);
  }
  if (k > 0)
    count = tensor::DimOp::create(rewriter, loc, flatIndices, 0);

  SmallVector<OpFoldResult> sliceSizes(sizes);
  sliceSizes[a] = rewriter.getIndexAttr(1);
  SmallVector<int64_t> rowShape;
  for (int64_t d = 0; d < rank; ++d)
    if (d != a)
      rowShape.push_back(
          getConstantIntValue(sizes[d]).value_or(ShapedType::kDynamic));
  auto rowType = RankedTensorType::get(rowShape, elementType);
  SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
  Value lengthValue = arith::ConstantIndexOp::create(rewriter, loc, length);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0),
        one = arith::ConstantIndexOp::create(rewriter, loc, 1);

  // indices[n] as an index and whether it is in [0, V).
  auto readIndex = [&](OpBuilder &b, Location l, Value n) {
    Value raw =
        k > 0 ? tensor::ExtractOp::create(b, l, flatIndices, ValueRange{n})
              : tensor::ExtractOp::create(b, l, indices, ValueRange{});
    return castIndexInRange(b, l, raw, lengthValue);
  };

  // scale_grad_by_freq: counts[v] = #{n : indices[n] == v} (as floats).
  Value counts;
  if (op.getScaleGradByFreq()) {
    Value countInit =
        filled(rewriter, loc,
               tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{length},
                                       elementType),
               0.0);
    counts =
        scf::ForOp::create(
            rewriter, loc, zero, count, one, ValueRange{countInit},
            [&](OpBuilder &b, Location l, Value n, ValueRange iter) {
              Value index, inRange;
              std::tie(index, inRange) = readIndex(b, l, n);
              // counts[v] += 1, or counts[0] += 0 for an out-of-range
              // index: one in-place read-modify-write either way.
              Value at = arith::SelectOp::create(b, l, inRange, index, zero);
              Value old = tensor::ExtractOp::create(b, l, iter[0], at);
              Value inc = arith::AddFOp::create(
                  b, l, old,
                  arith::SelectOp::create(b, l, inRange,
                                          floatConst(b, l, elementType, 1.0),
                                          floatConst(b, l, elementType, 0.0)));
              Value updated =
                  tensor::InsertOp::create(b, l, inc, iter[0], ValueRange{at});
              scf::YieldOp::create(b, l, updated);
            })
            .getResult(0);
  }
  // padding_idx, normalised into [0, V) (the verifier checked the range).
  std::optional<int64_t> paddingIdx = op.getPaddingIdx();
  if (paddingIdx && *paddingIdx < 0)
    *paddingIdx += length;

  // Adds the rows of dy whose index is in [lo, hi) (every row when lo is
  // null) into `dtable`, whose row 0 is table row lo, in index order.
  auto scatter = [&](Value dtable, Value lo, Value hi) {
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, count, one, ValueRange{dtable},
        [&](OpBuilder &b, Location l, Value n, ValueRange iter) {
          Value acc = iter[0];
          Value index, inRange;
          std::tie(index, inRange) = readIndex(b, l, n);
          Value take = inRange;
          if (lo)
            take = arith::AndIOp::create(
                b, l, take,
                arith::AndIOp::create(
                    b, l,
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                          index, lo),
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                          index, hi)));
          if (paddingIdx)
            take = arith::AndIOp::create(
                b, l, take,
                arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ne, index,
                    arith::ConstantIndexOp::create(b, l, *paddingIdx)));
          auto ifOp = scf::IfOp::create(
              b, l, take,
              [&](OpBuilder &tb, Location tl) {
                SmallVector<OpFoldResult> rowOffsets(rank, tb.getIndexAttr(0));
                rowOffsets[a] =
                    lo ? arith::SubIOp::create(tb, tl, index, lo).getResult()
                       : index;
                Value row = tensor::ExtractSliceOp::create(
                    tb, tl, rowType, acc, rowOffsets, sliceSizes, strides);
                Value dyRow = flatDy;
                if (k > 0) {
                  SmallVector<OpFoldResult> dyOffsets(rank, tb.getIndexAttr(0));
                  dyOffsets[a] = n;
                  dyRow = tensor::ExtractSliceOp::create(
                      tb, tl, rowType, flatDy, dyOffsets, sliceSizes, strides);
                }
                Value sum;
                if (counts) { // row += dyRow * (1 / counts[v])
                  Value scale = arith::DivFOp::create(
                      tb, tl, floatConst(tb, tl, elementType, 1.0),
                      tensor::ExtractOp::create(tb, tl, counts, index));
                  AffineMap id = tb.getMultiDimIdentityMap(rowType.getRank());
                  sum = buildGeneric(
                      tb, tl, {{dyRow, id}}, {{row, id}},
                      [&](OpBuilder &gb, Location gl, ValueRange args) {
                        Value scaled =
                            arith::MulFOp::create(gb, gl, args[0], scale);
                        return SmallVector<Value>{
                            arith::AddFOp::create(gb, gl, args[1], scaled)};
                      })[0];
                } else {
                  sum = addInto(tb, tl, row, dyRow); // row += dyRow
                }
                Value updated = tensor::InsertSliceOp::create(
                    tb, tl, sum, acc, rowOffsets, sliceSizes, strides);
                scf::YieldOp::create(tb, tl, updated);
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, acc);
              });
          scf::YieldOp::create(b, l, ifOp.getResult(0));
        });
    return loop.getResult(0);
  };

  // A large table outside any loop: its rows in up to 16 blocks, one
  // scf.forall iteration each (threads), each walking all the indices and
  // adding the rows that fall in its block. The block count is set by the
  // table, not the thread count, and every row still receives its sums in
  // index order: the result does not depend on the thread count. The
  // zeroing stays one fill before (rlx-optimize-contractions runs it on the
  // threads too).
  std::optional<SmallVector<int64_t>> staticSizes = getConstantIntValues(sizes);
  int64_t tableElements = staticSizes ? ShapedType::getNumElements(*staticSizes)
                                      : ShapedType::kDynamic;
  int64_t parts = std::min<int64_t>(length, 16);
  if (parts < 2 || !worthThreads(op, tableElements))
    return SmallVector<Value>{scatter(zeros, Value(), Value())};

  int64_t chunk = llvm::divideCeil(length, parts);
  parts = llvm::divideCeil(length, chunk);
  auto forall = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(parts)},
      ValueRange{zeros}, std::nullopt);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(forall.getBody());
  Value p = forall.getInductionVar(0);
  AffineExpr pe = rewriter.getAffineDimExpr(0);
  Value lo = affine::makeComposedAffineApply(rewriter, loc, pe * chunk, {p});
  // Static blocks when they divide the table, else a shorter last one.
  OpFoldResult blockSize = rewriter.getIndexAttr(chunk);
  if (length % chunk != 0)
    blockSize = affine::makeComposedFoldedAffineMin(
        rewriter, loc,
        AffineMap::get(1, 0,
                       {rewriter.getAffineConstantExpr(chunk),
                        rewriter.getAffineConstantExpr(length) - pe * chunk},
                       rewriter.getContext()),
        {p});
  Value hi = affine::makeComposedAffineApply(
      rewriter, loc, pe * chunk + rewriter.getAffineSymbolExpr(0),
      {p, blockSize});
  SmallVector<OpFoldResult> blockOffsets(rank, rewriter.getIndexAttr(0));
  blockOffsets[a] = lo;
  SmallVector<OpFoldResult> blockSizes(sizes);
  blockSizes[a] = blockSize;
  Value block = tensor::ExtractSliceOp::create(
      rewriter, loc, forall.getRegionIterArgs()[0], blockOffsets, blockSizes,
      strides);
  Value summed = scatter(block, lo, hi);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, summed,
                                        forall.getRegionIterArgs()[0],
                                        blockOffsets, blockSizes, strides);
  return SmallVector<Value>{forall.getResult(0)};
}

using GatherDecompositions =
    DecompositionList<Decomposition<GatherBackwardOp, decomposeGatherBackward>>;

void mlir::rlx::populateGatherDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options) {
  GatherDecompositions::addPatterns(patterns, options);
}

void mlir::rlx::attachGatherDecompositionModels(MLIRContext *ctx) {
  GatherDecompositions::attachModels(ctx);
}
