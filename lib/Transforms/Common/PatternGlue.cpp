//===- PatternGlue.cpp - one rewrite function, two entry points -----------===//
#include "Common/PatternGlue.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

SmallVector<Value> mlir::rlx::castToResultTypes(OpBuilder &b, Operation *op,
                                                ValueRange values) {
  SmallVector<Value> cast;
  for (auto [value, type] : llvm::zip_equal(values, op->getResultTypes()))
    cast.push_back(value.getType() == type
                       ? value
                       : tensor::CastOp::create(b, op->getLoc(), type, value)
                             .getResult());
  return cast;
}
