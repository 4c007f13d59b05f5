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

  auto loop = scf::ForOp::create(
      rewriter, loc, zero, count, one, ValueRange{dtable},
      [&](OpBuilder &b, Location l, Value n, ValueRange iter) {
        Value acc = iter[0];
        Value raw =
            k > 0 ? tensor::ExtractOp::create(b, l, flatIndices, ValueRange{n})
                  : tensor::ExtractOp::create(b, l, indices, ValueRange{});
        Value index, inRange;
        std::tie(index, inRange) = castIndexInRange(b, l, raw, lengthValue);
        auto ifOp = scf::IfOp::create(
            b, l, inRange,
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
              Value sum = addInto(tb, tl, row, dyRow); // row += dyRow
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
