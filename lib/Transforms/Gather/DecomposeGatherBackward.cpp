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
  Value dtable =
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

  auto loop = scf::ForOp::create(
      rewriter, loc, zero, count, one, ValueRange{dtable},
      [&](OpBuilder &b, Location l, Value n, ValueRange iter) {
        Value acc = iter[0];
        Value index, inRange;
        std::tie(index, inRange) = readIndex(b, l, n);
        Value take = inRange;
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
              rowOffsets[a] = index;
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
  return SmallVector<Value>{loop.getResult(0)};
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
