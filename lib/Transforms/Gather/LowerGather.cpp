//===- LowerGather.cpp - Gather forward ops to linalg ---------------------===//
//
// One linalg.generic over the result, reading the table with tensor.extract:
//
//   y[p..., n..., q...] = in_range ? table[p..., idx, q...] : 0,
//   idx = indices[n...], in_range = 0 <= idx < V
//
// The read uses the clamped index select(in_range, idx, 0), so an
// out-of-range index is never dereferenced. A table whose row count is
// dynamic is checked for V == 0 first (scf.if; then the result is zeros),
// since even index 0 would be out of bounds.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/PatternGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// y = table rows at `indices` along axis, zero where out of range.
static FailureOr<SmallVector<Value>>
lowerGather(RewriterBase &rewriter, GatherOp op, const LoweringOptions &) {
  Value table = op.getTable(), indices = op.getIndices();
  auto tableType = cast<RankedTensorType>(table.getType());
  int64_t tableRank = tableType.getRank();
  int64_t k = cast<RankedTensorType>(indices.getType()).getRank();
  int64_t a = verifiedAxis(op.getAxis(), tableRank), rank = tableRank - 1 + k;

  Location loc = op.getLoc();
  Type elementType = tableType.getElementType();
  SmallVector<OpFoldResult> tableSizes =
      tensor::getMixedSizes(rewriter, loc, table);
  SmallVector<OpFoldResult> indexSizes =
      tensor::getMixedSizes(rewriter, loc, indices);
  // shape(y) = shape(table)[:a] + shape(indices) + shape(table)[a+1:]
  SmallVector<OpFoldResult> sizes(tableSizes.begin(), tableSizes.begin() + a);
  llvm::append_range(sizes, indexSizes);
  sizes.append(tableSizes.begin() + a + 1, tableSizes.end());
  Value init = tensor::EmptyOp::create(rewriter, loc, sizes, elementType);

  // A table without rows: every index is out of range and there is nothing
  // to read, not even at the clamped index 0.
  int64_t rows = tableType.getDimSize(a);
  if (rows == 0)
    return SmallVector<Value>{filled(rewriter, loc, init, 0.0)};

  Value length = getValueOrCreateConstantIndexOp(rewriter, loc, tableSizes[a]);
  SmallVector<AffineExpr> indexExprs;
  for (int64_t d = a; d < a + k; ++d)
    indexExprs.push_back(rewriter.getAffineDimExpr(d));
  AffineMap indexMap =
      AffineMap::get(rank, 0, indexExprs, rewriter.getContext());
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  auto buildGather = [&](OpBuilder &builder, Location gloc) -> Value {
    return buildGeneric(
        builder, gloc, {{indices, indexMap}}, {{init, identity}},
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto [index, inRange] = castIndexInRange(b, l, args[0], length);
          Value clamped = arith::SelectOp::create(
              b, l, inRange, index, arith::ConstantIndexOp::create(b, l, 0));
          SmallVector<Value> coords;
          for (int64_t d = 0; d < a; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          coords.push_back(clamped);
          for (int64_t d = a + k; d < rank; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          Value v = tensor::ExtractOp::create(b, l, table, coords);
          return SmallVector<Value>{arith::SelectOp::create(
              b, l, inRange, v, floatConst(b, l, elementType, 0))};
        })[0];
  };
  if (!ShapedType::isDynamic(rows))
    return SmallVector<Value>{buildGather(rewriter, loc)};

  // A dynamic row count may be 0 at run time: then the result is zeros and
  // the table is not touched.
  Value noRows =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, length,
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  auto ifOp = scf::IfOp::create(
      rewriter, loc, noRows,
      [&](OpBuilder &b, Location l) {
        scf::YieldOp::create(b, l, filled(b, l, init, 0.0));
      },
      [&](OpBuilder &b, Location l) {
        scf::YieldOp::create(b, l, buildGather(b, l));
      });
  return SmallVector<Value>{ifOp.getResult(0)};
}

void mlir::rlx::populateGatherLoweringPatterns(RewritePatternSet &patterns,
                                               const LoweringOptions &options) {
  addLoweringPatterns<Lowering<GatherOp, lowerGather>>(patterns, options);
}
