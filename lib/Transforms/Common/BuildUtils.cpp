//===- BuildUtils.cpp - IR-building helpers shared by the rewrites --------===//
#include "Common/BuildUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

Value mlir::rlx::floatConst(OpBuilder &b, Location loc, Type type,
                            double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

Value mlir::rlx::indexConst(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

SmallVector<OpFoldResult> mlir::rlx::mixedSizes(OpBuilder &b, Location loc,
                                                Value tensor) {
  return tensor::getMixedSizes(b, loc, tensor);
}

Value mlir::rlx::emptyLike(OpBuilder &b, Location loc, Value like,
                           Type elementType) {
  if (!elementType)
    elementType = cast<ShapedType>(like.getType()).getElementType();
  return tensor::EmptyOp::create(b, loc, mixedSizes(b, loc, like),
                                 elementType);
}

Value mlir::rlx::emptyOf(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(b, loc, type, dynamicSizes);
}

Value mlir::rlx::filled(OpBuilder &b, Location loc, Value empty,
                        double value) {
  Type e = cast<ShapedType>(empty.getType()).getElementType();
  Value c = floatConst(b, loc, e, value);
  return linalg::FillOp::create(b, loc, c, empty).getResult(0);
}

Value mlir::rlx::filledLike(OpBuilder &b, Location loc, Value like,
                            double value, Type elementType) {
  return filled(b, loc, emptyLike(b, loc, like, elementType), value);
}

SmallVector<utils::IteratorType>
mlir::rlx::iteratorTypes(int64_t rank, ArrayRef<int64_t> reductionDims) {
  SmallVector<utils::IteratorType> types(rank, utils::IteratorType::parallel);
  for (int64_t d : reductionDims)
    types[d] = utils::IteratorType::reduction;
  return types;
}

AffineMap mlir::rlx::dropDimsMap(MLIRContext *ctx, int64_t rank,
                                 ArrayRef<int64_t> dropped) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dropped, d))
      exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value mlir::rlx::buildElementwise(
    OpBuilder &b, Location loc, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    Type resultElementType) {
  Value init = emptyLike(b, loc, inputs[0], resultElementType);
  int64_t rank = cast<ShapedType>(inputs[0].getType()).getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps,
      iteratorTypes(rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, v);
      });
  return generic.getResult(0);
}

#include "Common/PatternGlue.h"

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

SmallVector<Value> mlir::rlx::buildReduction(OpBuilder &b, Location loc,
                                             Value source,
                                             ArrayRef<int64_t> reducedDims,
                                             ValueRange broadcast,
                                             ArrayRef<double> inits,
                                             GenericBody body) {
  auto type = cast<RankedTensorType>(source.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(mixedSizes(b, loc, source)))
    if (!llvm::is_contained(reducedDims, static_cast<int64_t>(d)))
      sizes.push_back(size);
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  SmallVector<Value> outputs;
  for (double init : inits)
    outputs.push_back(filled(b, loc, empty, init));

  AffineMap reducedMap = dropDimsMap(b.getContext(), rank, reducedDims);
  SmallVector<Value> inputs{source};
  llvm::append_range(inputs, broadcast);
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  maps.append(broadcast.size() + outputs.size(), reducedMap);
  auto generic = linalg::GenericOp::create(
      b, loc, ValueRange(outputs).getTypes(), inputs, outputs, maps,
      iteratorTypes(rank, reducedDims),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
  return SmallVector<Value>(generic.getResults());
}

Value mlir::rlx::buildBroadcastElementwise(
    OpBuilder &b, Location loc, ValueRange full, ValueRange reduced,
    ArrayRef<int64_t> reducedDims,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    Type resultElementType) {
  Value init = emptyLike(b, loc, full[0], resultElementType);
  int64_t rank = cast<ShapedType>(full[0].getType()).getRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps(full.size(), identity);
  maps.append(reduced.size(), dropDimsMap(b.getContext(), rank, reducedDims));
  maps.push_back(identity);
  SmallVector<Value> inputs(full);
  llvm::append_range(inputs, reduced);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps,
      iteratorTypes(rank), [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args.drop_back()));
      });
  return generic.getResult(0);
}

std::pair<Value, Value> mlir::rlx::castIndexInRange(OpBuilder &b, Location loc,
                                                    Value value,
                                                    Value length) {
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  Value zero = indexConst(b, loc, 0);
  Value geZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
  Value ltLength =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, length);
  return {index, arith::AndIOp::create(b, loc, geZero, ltLength)};
}

Value mlir::rlx::addInto(OpBuilder &b, Location loc, Value acc, Value value) {
  int64_t rank = cast<ShapedType>(acc.getType()).getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  auto generic = linalg::GenericOp::create(
      b, loc, acc.getType(), ValueRange{value}, ValueRange{acc},
      ArrayRef<AffineMap>{id, id}, iteratorTypes(rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(nb, nloc, args[1], args[0]);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return generic.getResult(0);
}
