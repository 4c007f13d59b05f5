//===- ScanUtils.cpp - helpers shared by the scan lowering and gradients --===//
#include "Scan/ScanUtils.h"

#include "Common/Builders.h"

#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::rlx;

SmallVector<Value> mlir::rlx::cloneScanStep(OpBuilder &b, Location loc,
                                            Region &region, Value carry,
                                            ValueRange xs, OpFoldResult t,
                                            ValueRange extra) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArgument(0), carry);
  for (auto [i, x] : llvm::enumerate(xs))
    mapping.map(block.getArgument(i + 1),
                extractRow(b, loc, x, t, block.getArgument(i + 1).getType()));
  mapping.map(block.getArguments().drop_front(1 + xs.size()), extra);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  auto yield = cast<YieldOp>(block.getTerminator()); // checked by the verifier
  return llvm::map_to_vector(
      yield.getValues(), [&](Value v) { return mapping.lookupOrDefault(v); });
}

Value mlir::rlx::extractRow(OpBuilder &b, Location loc, Value stacked,
                            OpFoldResult index, Type rowType) {
  auto type = cast<RankedTensorType>(stacked.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = index;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, stacked);
  sizes[0] = b.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto sliceType = RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType());
  Value row = tensor::ExtractSliceOp::create(b, loc, sliceType, stacked,
                                             offsets, sizes, strides);
  if (row.getType() != rowType)
    row = tensor::CastOp::create(b, loc, rowType, row);
  return row;
}

Value mlir::rlx::insertRow(OpBuilder &b, Location loc, Value row, Value stacked,
                           OpFoldResult index) {
  int64_t rank = cast<RankedTensorType>(stacked.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = index;
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(1)};
  llvm::append_range(sizes, tensor::getMixedSizes(b, loc, row));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  return tensor::InsertSliceOp::create(b, loc, row, stacked, offsets, sizes,
                                       strides);
}

Value mlir::rlx::emptyStacked(OpBuilder &b, Location loc, int64_t rows,
                              Value like) {
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(rows)};
  llvm::append_range(sizes, tensor::getMixedSizes(b, loc, like));
  return tensor::EmptyOp::create(
      b, loc, sizes, cast<ShapedType>(like.getType()).getElementType());
}

Value mlir::rlx::buildSegmentBegin(OpBuilder &b, Location loc, Value j,
                                   int64_t length, int64_t numCheckpoints) {
  int64_t rows = scanTrajectoryRows(length, numCheckpoints);
  Value scaled = arith::MulIOp::create(
      b, loc, j, arith::ConstantIndexOp::create(b, loc, length));
  Value num = arith::AddIOp::create(
      b, loc, scaled, arith::ConstantIndexOp::create(b, loc, rows - 1));
  return arith::DivUIOp::create(b, loc, num,
                                arith::ConstantIndexOp::create(b, loc, rows));
}

Value mlir::rlx::yieldInPlace(OpBuilder &b, Location loc, Value next,
                              Value iterArg) {
  return linalg::CopyOp::create(b, loc, ValueRange{next}, ValueRange{iterArg})
      .getResult(0);
}
