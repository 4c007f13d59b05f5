//===- TensorGrad.cpp - reverse rules of tensor ops -----------------------===//
//
//   expand_shape:   dsrc = collapse_shape(dy)      (same reassociation)
//   collapse_shape: dsrc = expand_shape(dy)        (to src's sizes)
//   extract_slice:  dsrc = insert_slice(dy into zeros like src)
//   insert_slice:   dsrc = extract_slice(dy), ddest = insert_slice(zeros into
//   dy) pad:            dsrc = extract_slice(dy at the low padding, src's
//   sizes) concat:         dx_i = extract_slice(dy at x_i's offset along dim)
//   cast:           dsrc = cast(dy)
//   extract:        dtensor = insert(dy into zeros like tensor)
//
//===----------------------------------------------------------------------===//
#include "Autodiff/StructuredGrad.h"
#include "Common/Builders.h"
#include "Common/GradGlue.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradExpandShape(OpBuilder &b, tensor::ExpandShapeOp op,
                                     ArrayRef<Value> dys, ArrayRef<bool> needed,
                                     SmallVectorImpl<Value> &dxs) {
  dxs[0] = tensor::CollapseShapeOp::create(
      b, op.getLoc(), op.getSrcType(), dys[0], op.getReassociationIndices());
  return success();
}

static LogicalResult gradCollapseShape(OpBuilder &b, tensor::CollapseShapeOp op,
                                       ArrayRef<Value> dys,
                                       ArrayRef<bool> needed,
                                       SmallVectorImpl<Value> &dxs) {
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, op.getLoc(), op.getSrc());
  dxs[0] =
      tensor::ExpandShapeOp::create(b, op.getLoc(), op.getSrcType(), dys[0],
                                    op.getReassociationIndices(), sizes);
  return success();
}

static LogicalResult gradExtractSlice(OpBuilder &b, tensor::ExtractSliceOp op,
                                      ArrayRef<Value> dys,
                                      ArrayRef<bool> needed,
                                      SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  Value zeros = zerosLike(b, loc, op.getSource());
  dxs[0] = tensor::InsertSliceOp::create(
      b, loc, castToType(b, loc, dys[0], op.getType()), zeros,
      op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides());
  return success();
}

static LogicalResult gradInsertSlice(OpBuilder &b, tensor::InsertSliceOp op,
                                     ArrayRef<Value> dys, ArrayRef<bool> needed,
                                     SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  unsigned src = op.getSourceMutable().getOperandNumber();
  unsigned dest = op.getDestMutable().getOperandNumber();
  if (needed[src])
    dxs[src] = tensor::ExtractSliceOp::create(
        b, loc, op.getSourceType(), dys[0], op.getMixedOffsets(),
        op.getMixedSizes(), op.getMixedStrides());
  if (needed[dest])
    dxs[dest] = tensor::InsertSliceOp::create(
        b, loc, zerosLike(b, loc, op.getSource()), dys[0], op.getMixedOffsets(),
        op.getMixedSizes(), op.getMixedStrides());
  return success();
}

static LogicalResult gradPad(OpBuilder &b, tensor::PadOp op,
                             ArrayRef<Value> dys, ArrayRef<bool> needed,
                             SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  unsigned src = op.getSourceMutable().getOperandNumber();
  for (auto [i, n] : llvm::enumerate(needed))
    if (n && i != src)
      return op.emitError("'tensor.pad' is not differentiable with respect "
                          "to its padding sizes");
  int64_t rank = op.getSourceType().getRank();
  dxs[src] = tensor::ExtractSliceOp::create(
      b, loc, op.getSourceType(), dys[0], op.getMixedLowPad(),
      tensor::getMixedSizes(b, loc, op.getSource()),
      SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
  return success();
}

static LogicalResult gradConcat(OpBuilder &b, tensor::ConcatOp op,
                                ArrayRef<Value> dys, ArrayRef<bool> needed,
                                SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  int64_t dim = op.getDim();
  int64_t rank = op.getResultType().getRank();
  OpFoldResult offset = b.getIndexAttr(0);
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, input);
    if (needed[i]) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      offsets[dim] = offset;
      dxs[i] = tensor::ExtractSliceOp::create(
          b, loc, cast<RankedTensorType>(input.getType()), dys[0], offsets,
          sizes, SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
    }
    offset = affine::makeComposedFoldedAffineApply(
        b, loc, b.getAffineDimExpr(0) + b.getAffineDimExpr(1),
        {offset, sizes[dim]});
  }
  return success();
}

static LogicalResult gradCast(OpBuilder &b, tensor::CastOp op,
                              ArrayRef<Value> dys, ArrayRef<bool> needed,
                              SmallVectorImpl<Value> &dxs) {
  dxs[0] = castToType(b, op.getLoc(), dys[0], op.getSource().getType());
  return success();
}

static LogicalResult gradExtract(OpBuilder &b, tensor::ExtractOp op,
                                 ArrayRef<Value> dys, ArrayRef<bool> needed,
                                 SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  if (!dys[0] || !needed[0])
    return success();
  dxs[0] = tensor::InsertOp::create(
      b, loc, dys[0], zerosLike(b, loc, op.getTensor()), op.getIndices());
  return success();
}

using TensorGrads =
    GradList<Grad<tensor::ExpandShapeOp, gradExpandShape>,
             Grad<tensor::CollapseShapeOp, gradCollapseShape>,
             Grad<tensor::ExtractSliceOp, gradExtractSlice>,
             Grad<tensor::InsertSliceOp, gradInsertSlice>,
             Grad<tensor::PadOp, gradPad>, Grad<tensor::ConcatOp, gradConcat>,
             Grad<tensor::CastOp, gradCast>,
             Grad<tensor::ExtractOp, gradExtract>>;

void mlir::rlx::attachTensorGradModels(MLIRContext *ctx) {
  TensorGrads::attachModels(ctx);
}
