//===- PatternGlue.cpp - one rewrite function, two entry points -----------===//
#include "Common/PatternGlue.h"

#include "Common/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult mlir::rlx::checkF32OrF64(RewriterBase &rewriter, Operation *op) {
  auto check = [&](Type t) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(t);
    Type e = shaped ? shaped.getElementType() : t;
    if (!isa<FloatType>(e) || e.isF32() || e.isF64())
      return success();
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "element type " << e
           << " is not supported (only f32, f64, bf16 and f16)";
    });
  };
  for (Type t : op->getOperandTypes())
    if (failed(check(t)))
      return failure();
  for (Type t : op->getResultTypes())
    if (failed(check(t)))
      return failure();
  return success();
}

SmallVector<Value> mlir::rlx::castToResultTypes(OpBuilder &b, Operation *op,
                                                ValueRange values) {
  SmallVector<Value> cast;
  for (auto [value, type] : llvm::zip_equal(values, op->getResultTypes()))
    cast.push_back(
        value.getType() == type
            ? value
            : tensor::CastOp::create(b, op->getLoc(), type, value).getResult());
  return cast;
}

bool mlir::rlx::isLowPrecisionFloat(Type type) {
  Type e = getElementTypeOrSelf(type);
  return e.isBF16() || e.isF16();
}

bool mlir::rlx::hasLowPrecisionFloats(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isLowPrecisionFloat) ||
         llvm::any_of(op->getResultTypes(), isLowPrecisionFloat);
}

/// `type` with a bf16/f16 element type replaced by f32.
static Type promotedType(Type type) {
  if (!isLowPrecisionFloat(type))
    return type;
  Type f32 = Float32Type::get(type.getContext());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(f32);
  return f32;
}

/// `value` converted to the float element type `element` (extf or truncf),
/// elementwise for a tensor.
static Value convertFloat(OpBuilder &b, Location loc, Value value,
                          Type element) {
  Type from = getElementTypeOrSelf(value.getType());
  auto scalar = [&](OpBuilder &b, Location loc, Value v) -> Value {
    if (from.getIntOrFloatBitWidth() < element.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, element, v);
    return arith::TruncFOp::create(b, loc, element, v);
  };
  if (!isa<RankedTensorType>(value.getType()))
    return scalar(b, loc, value);
  return buildElementwise(
      b, loc, value,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        return scalar(b, loc, args[0]);
      },
      element);
}

/// Erases `op` and then, recursively, the producers it leaves dead (the
/// tensor.empty and tensor.dim that a conversion generic was built on): a
/// failed rewrite must leave the IR as it found it.
static void eraseWithDeadProducers(RewriterBase &rewriter, Operation *op) {
  SmallVector<Operation *> worklist{op};
  DenseSet<Operation *> erased;
  while (!worklist.empty()) {
    Operation *next = worklist.pop_back_val();
    if (erased.contains(next) || (next != op && !isOpTriviallyDead(next)))
      continue;
    for (Value operand : next->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
    erased.insert(next);
    rewriter.eraseOp(next);
  }
}

FailureOr<SmallVector<Value>> mlir::rlx::runInF32(
    RewriterBase &rewriter, Operation *op,
    function_ref<FailureOr<SmallVector<Value>>(Operation *)> rewrite) {
  Location loc = op->getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  SmallVector<Operation *> created;
  IRMapping mapping;
  for (Value operand : op->getOperands()) {
    if (!isLowPrecisionFloat(operand.getType()) || mapping.contains(operand))
      continue;
    Type f32 = getElementTypeOrSelf(promotedType(operand.getType()));
    Value wide = convertFloat(rewriter, loc, operand, f32);
    created.push_back(wide.getDefiningOp());
    mapping.map(operand, wide);
  }
  Operation *f32Op = rewriter.clone(*op, mapping);
  for (OpResult result : f32Op->getResults())
    result.setType(promotedType(result.getType()));
  // Region arguments follow the operand types (a scan's carry and steps):
  // they become f32 and are rounded back on entry, so that the region computes
  // what it did; what a terminator passes back is extended to f32.
  for (Region &region : f32Op->getRegions()) {
    for (Block &block : region) {
      rewriter.setInsertionPointToStart(&block);
      for (BlockArgument arg : block.getArguments()) {
        Type original = arg.getType();
        if (!isLowPrecisionFloat(original))
          continue;
        arg.setType(promotedType(original));
        Value narrow =
            convertFloat(rewriter, loc, arg, getElementTypeOrSelf(original));
        rewriter.replaceAllUsesExcept(arg, narrow, narrow.getDefiningOp());
      }
      if (block.empty() ||
          !block.back().hasTrait<::mlir::OpTrait::IsTerminator>())
        continue;
      Operation *terminator = &block.back();
      rewriter.setInsertionPoint(terminator);
      for (OpOperand &use : terminator->getOpOperands())
        if (isLowPrecisionFloat(use.get().getType()))
          use.set(
              convertFloat(rewriter, loc, use.get(), rewriter.getF32Type()));
    }
  }

  rewriter.setInsertionPoint(op);
  FailureOr<SmallVector<Value>> values = rewrite(f32Op);
  rewriter.eraseOp(f32Op);
  if (failed(values)) {
    for (Operation *extension : llvm::reverse(created))
      eraseWithDeadProducers(rewriter, extension);
    return failure();
  }
  SmallVector<Value> rounded;
  for (auto [value, type] : llvm::zip_equal(*values, op->getResultTypes()))
    rounded.push_back(
        isLowPrecisionFloat(type)
            ? convertFloat(rewriter, loc, value, getElementTypeOrSelf(type))
            : value);
  return rounded;
}
