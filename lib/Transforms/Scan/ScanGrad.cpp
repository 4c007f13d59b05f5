//===- ScanGrad.cpp - reverse rule of scan --------------------------------===//
//
//   dinit = scan_backward(init, trajectory, upstream, xs) vjp {body_vjp}
//   dxs_i = scan_backward_xs(...) {xs_idx = i} vjp {body_vjp}
//
// body_vjp(c, x_t..., d) is rlx-grad's own reverse sweep over a copy of the
// body (c, x_t... -> next carry) with cotangent d. `upstream` [L, *carry]
// holds the trajectory's cotangent (when the op saves every carry) plus the
// final carry's cotangent in row L-1. A scan that saves no trajectory is
// run again with save_trajectory for the backward ops (same checkpoints;
// forward_body recomputes the others). Values the body captures from above
// (weights) are not differentiated: rlx-grad reports them.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/GradGlue.h"

#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"
#include "RlxAD/Transforms/Autodiff.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::rlx;

/// Fills `region` with body_vjp: (carry, x_t..., d) -> (dcarry, dx_t...).
static LogicalResult buildBodyVjp(ScanOp op, Region &region) {
  Block &body = op.getBody().front();
  Location loc = op.getLoc();
  Block *block = new Block();
  region.push_back(block);
  IRMapping mapping;
  for (BlockArgument arg : body.getArguments())
    mapping.map(arg, block->addArgument(arg.getType(), loc));
  Value d = block->addArgument(op.getInit().getType(), loc);
  OpBuilder b(op->getContext());
  b.setInsertionPointToEnd(block);
  SmallVector<Operation *> ops;
  for (Operation &fwd : body.without_terminator())
    ops.push_back(b.clone(fwd, mapping));
  Value next = mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
  SmallVector<Value> wrt(block->getArguments().drop_back());
  FailureOr<SmallVector<Value>> grads =
      buildReverseSweep(b, ops, wrt, {next}, {d});
  if (failed(grads))
    return failure();
  SmallVector<Value> yielded;
  for (auto [v, g] : llvm::zip(wrt, *grads))
    yielded.push_back(g ? castToType(b, loc, g, v.getType())
                        : zerosLike(b, loc, v));
  YieldOp::create(b, loc, yielded);
  return success();
}

static LogicalResult gradScan(OpBuilder &b, ScanOp op, ArrayRef<Value> dys,
                              ArrayRef<bool> needed,
                              SmallVectorImpl<Value> &dxs) {
  Location loc = op.getLoc();
  int64_t length = op.getLength();
  int64_t checkpoints = op.getNumCheckpoints();
  bool savesAll = checkpoints == 0 || checkpoints == length;
  auto carryType = cast<RankedTensorType>(op.getInit().getType());
  auto stacked = [&](int64_t rows) {
    SmallVector<int64_t> shape{rows};
    llvm::append_range(shape, carryType.getShape());
    return RankedTensorType::get(shape, carryType.getElementType());
  };

  // The trajectory: the op's own, or that of a copy that saves it.
  Value trajectory = op.getTrajectory();
  if (!trajectory) {
    OperationState state(loc, op->getName());
    state.addOperands(op->getOperands());
    state.addAttributes(op->getAttrs());
    state.addAttribute(op.getSaveTrajectoryAttrName(), b.getUnitAttr());
    state.addTypes({carryType, stacked(savesAll ? length : checkpoints)});
    IRMapping mapping;
    op.getBody().cloneInto(state.addRegion(), mapping);
    trajectory = b.create(state)->getResult(1);
  }

  // upstream [L, *carry]: the trajectory's cotangent, plus the final carry's
  // in row L-1.
  Value upstream;
  if (dys.size() > 1 && dys[1]) {
    if (!savesAll)
      return op.emitError("'rlx.scan' is not differentiable with respect to a "
                          "checkpointed (num_checkpoints < length) trajectory");
    upstream = castToType(b, loc, dys[1], stacked(length));
  } else {
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(length)};
    llvm::append_range(sizes, tensor::getMixedSizes(b, loc, op.getInit()));
    Value empty =
        tensor::EmptyOp::create(b, loc, sizes, carryType.getElementType());
    upstream = castToType(b, loc, filled(b, loc, empty, 0.0), stacked(length));
  }
  if (dys[0]) {
    int64_t rank = carryType.getRank();
    SmallVector<OpFoldResult> offsets(rank + 1, b.getIndexAttr(0));
    offsets[0] = b.getIndexAttr(length - 1);
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(1)};
    llvm::append_range(sizes, tensor::getMixedSizes(b, loc, op.getInit()));
    SmallVector<OpFoldResult> strides(rank + 1, b.getIndexAttr(1));
    Value row = tensor::ExtractSliceOp::create(b, loc, carryType, upstream,
                                               offsets, sizes, strides);
    Value sum = addInto(b, loc, row, castToType(b, loc, dys[0], carryType));
    upstream = tensor::InsertSliceOp::create(b, loc, sum, upstream, offsets,
                                             sizes, strides);
  }

  // One backward op per needed gradient, each with its own regions.
  auto build = [&](StringRef name, Type type,
                   std::optional<int64_t> xsIdx) -> FailureOr<Value> {
    OperationState state(loc, name);
    state.addOperands({op.getInit(), trajectory, upstream});
    state.addOperands(op.getXs());
    state.addAttribute("length", op.getLengthAttr());
    state.addAttribute("num_checkpoints", b.getI64IntegerAttr(checkpoints));
    if (xsIdx)
      state.addAttribute("xs_idx", b.getI64IntegerAttr(*xsIdx));
    state.addTypes(type);
    state.addRegion();
    state.addRegion();
    // The regions are filled once attached (the reverse sweep walks parents).
    Operation *grad = b.create(state);
    if (failed(buildBodyVjp(op, grad->getRegion(0)))) {
      grad->erase();
      return failure();
    }
    if (!savesAll) {
      IRMapping mapping;
      op.getBody().cloneInto(&grad->getRegion(1), mapping);
    }
    return grad->getResult(0);
  };
  if (needed[0]) {
    FailureOr<Value> dinit =
        build(ScanBackwardOp::getOperationName(), carryType, std::nullopt);
    if (failed(dinit))
      return failure();
    dxs[0] = *dinit;
  }
  for (auto [i, x] : llvm::enumerate(op.getXs())) {
    if (!needed[1 + i])
      continue;
    FailureOr<Value> dx =
        build(ScanBackwardXsOp::getOperationName(), x.getType(), i);
    if (failed(dx))
      return failure();
    dxs[1 + i] = *dx;
  }
  return success();
}

void mlir::rlx::attachScanGradModels(MLIRContext *ctx) {
  GradList<Grad<ScanOp, gradScan>>::attachModels(ctx);
}
