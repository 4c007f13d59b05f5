//===- PatternGlue.cpp - one rewrite function, two entry points -----------===//
#include "Common/PatternGlue.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult mlir::rlx::checkF32OrF64(RewriterBase &rewriter, Operation *op) {
  auto check = [&](Type t) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(t);
    Type e = shaped ? shaped.getElementType() : t;
    if (!isa<FloatType>(e) || e.isF32() || e.isF64())
      return success();
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "element type " << e << " is not supported (only f32 and f64)";
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
