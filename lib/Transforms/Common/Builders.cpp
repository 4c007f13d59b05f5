//===- Builders.cpp - the IR builders every rewrite shares ----------------===//
#include "Common/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::rlx;

Value mlir::rlx::floatConst(OpBuilder &b, Location loc, Type type,
                            double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

Value mlir::rlx::emptyLike(OpBuilder &b, Location loc, Value like,
                           Type elementType) {
  if (!elementType)
    elementType = cast<ShapedType>(like.getType()).getElementType();
  return tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, like),
                                 elementType);
}

SmallVector<OpFoldResult> mlir::rlx::sizesWithout(OpBuilder &b, Location loc,
                                                  Value domain,
                                                  ArrayRef<int64_t> dropped) {
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(tensor::getMixedSizes(b, loc, domain)))
    if (!llvm::is_contained(dropped, static_cast<int64_t>(d)))
      sizes.push_back(size);
  return sizes;
}

Value mlir::rlx::filled(OpBuilder &b, Location loc, Value empty, double value) {
  Type e = cast<ShapedType>(empty.getType()).getElementType();
  Value c = floatConst(b, loc, e, value);
  return linalg::FillOp::create(b, loc, c, empty).getResult(0);
}

Value mlir::rlx::filledLike(OpBuilder &b, Location loc, Value like,
                            double value, Type elementType) {
  return filled(b, loc, emptyLike(b, loc, like, elementType), value);
}

std::pair<Value, Value> mlir::rlx::castIndexInRange(OpBuilder &b, Location loc,
                                                    Value value, Value length) {
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value geZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
  Value ltLength =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, length);
  return {index, arith::AndIOp::create(b, loc, geZero, ltLength)};
}

//===----------------------------------------------------------------------===//
// linalg.generic
//===----------------------------------------------------------------------===//

SmallVector<Value> mlir::rlx::buildGeneric(OpBuilder &b, Location loc,
                                           ArrayRef<GenericOperand> inputs,
                                           ArrayRef<GenericOperand> outputs,
                                           GenericBody body) {
  SmallVector<Value> ins, outs;
  SmallVector<AffineMap> maps;
  for (const GenericOperand &input : inputs) {
    ins.push_back(input.value);
    maps.push_back(input.map);
  }
  for (const GenericOperand &output : outputs) {
    outs.push_back(output.value);
    maps.push_back(output.map);
  }
  // A loop that no output indexes is a reduction.
  unsigned numLoops = maps.front().getNumDims();
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::reduction);
  for (unsigned d = 0; d < numLoops; ++d)
    if (llvm::any_of(outputs, [&](const GenericOperand &output) {
          return output.map.isFunctionOfDim(d);
        }))
      iterators[d] = utils::IteratorType::parallel;
  auto generic = linalg::GenericOp::create(
      b, loc, ValueRange(outs).getTypes(), ins, outs, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
  return SmallVector<Value>(generic.getResults());
}

SmallVector<Value> mlir::rlx::buildParallel(
    OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes, Type elementType,
    ArrayRef<GenericOperand> inputs, unsigned numResults, GenericBody body) {
  Value init = tensor::EmptyOp::create(b, loc, sizes, elementType);
  SmallVector<GenericOperand> outputs(
      numResults, {init, b.getMultiDimIdentityMap(sizes.size())});
  return buildGeneric(b, loc, inputs, outputs,
                      [&](OpBuilder &nb, Location nloc, ValueRange args) {
                        return body(nb, nloc, args.drop_back(numResults));
                      });
}

Value mlir::rlx::buildBroadcastElementwise(OpBuilder &b, Location loc,
                                           ValueRange full, ValueRange reduced,
                                           ArrayRef<int64_t> reducedDims,
                                           ElementwiseBody body,
                                           Type resultElementType) {
  auto type = cast<ShapedType>(full[0].getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<GenericOperand> inputs;
  for (Value v : full)
    inputs.push_back({v, identity});
  for (Value v : reduced)
    inputs.push_back({v, identity.dropResults(reducedDims)});
  return buildParallel(
      b, loc, tensor::getMixedSizes(b, loc, full[0]),
      resultElementType ? resultElementType : type.getElementType(), inputs, 1,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return SmallVector<Value>{body(nb, nloc, args)};
      })[0];
}

Value mlir::rlx::buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                                  ElementwiseBody body,
                                  Type resultElementType) {
  return buildBroadcastElementwise(b, loc, inputs, {}, {}, body,
                                   resultElementType);
}

SmallVector<Value> mlir::rlx::buildReduction(
    OpBuilder &b, Location loc, Value domain, ArrayRef<int64_t> reducedDims,
    ArrayRef<GenericOperand> inputs, ArrayRef<double> inits, GenericBody body) {
  auto type = cast<RankedTensorType>(domain.getType());
  Value empty = tensor::EmptyOp::create(
      b, loc, sizesWithout(b, loc, domain, reducedDims), type.getElementType());
  AffineMap accMap =
      b.getMultiDimIdentityMap(type.getRank()).dropResults(reducedDims);
  SmallVector<GenericOperand> outputs;
  for (double init : inits)
    outputs.push_back({filled(b, loc, empty, init), accMap});
  return buildGeneric(b, loc, inputs, outputs, body);
}

SmallVector<Value> mlir::rlx::buildSums(OpBuilder &b, Location loc,
                                        Value domain,
                                        ArrayRef<int64_t> reducedDims,
                                        ArrayRef<GenericOperand> inputs,
                                        unsigned numSums, GenericBody terms) {
  auto type = cast<RankedTensorType>(domain.getType());
  Value zeros = filled(
      b, loc,
      tensor::EmptyOp::create(b, loc, sizesWithout(b, loc, domain, reducedDims),
                              type.getElementType()),
      0.0);
  AffineMap accMap =
      b.getMultiDimIdentityMap(type.getRank()).dropResults(reducedDims);
  SmallVector<GenericOperand> outputs(numSums, {zeros, accMap});
  return buildGeneric(
      b, loc, inputs, outputs,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> values = terms(nb, nloc, args.drop_back(numSums));
        SmallVector<Value> sums;
        for (auto [acc, v] : llvm::zip_equal(args.take_back(numSums), values))
          sums.push_back(arith::AddFOp::create(nb, nloc, acc, v));
        return sums;
      });
}

Value mlir::rlx::buildSum(OpBuilder &b, Location loc, Value tensor,
                          ArrayRef<int64_t> reducedDims) {
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  return buildSums(b, loc, tensor, reducedDims,
                   {{tensor, b.getMultiDimIdentityMap(rank)}}, 1,
                   [](OpBuilder &, Location, ValueRange args) {
                     return SmallVector<Value>{args[0]};
                   })[0];
}

Value mlir::rlx::buildContraction(OpBuilder &b, Location loc, Value lhs,
                                  AffineMap lhsMap, Value rhs, AffineMap rhsMap,
                                  Value init, AffineMap outMap) {
  ArrayAttr maps = b.getAffineMapArrayAttr({lhsMap, rhsMap, outMap});
  return linalg::ContractOp::create(b, loc, TypeRange{init.getType()},
                                    ValueRange{lhs, rhs}, ValueRange{init},
                                    maps)
      .getResult(0);
}

Value mlir::rlx::buildMultiplyAccumulate(OpBuilder &b, Location loc,
                                         GenericOperand lhs, GenericOperand rhs,
                                         GenericOperand init) {
  return buildGeneric(
      b, loc, {lhs, rhs}, {init},
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value prod = arith::MulFOp::create(nb, nloc, args[0], args[1]);
        return SmallVector<Value>{
            arith::AddFOp::create(nb, nloc, args[2], prod).getResult()};
      })[0];
}

Value mlir::rlx::addInto(OpBuilder &b, Location loc, Value acc, Value value) {
  AffineMap id =
      b.getMultiDimIdentityMap(cast<ShapedType>(acc.getType()).getRank());
  return buildGeneric(b, loc, {{value, id}}, {{acc, id}},
                      [](OpBuilder &nb, Location nloc, ValueRange args) {
                        return SmallVector<Value>{
                            arith::AddFOp::create(nb, nloc, args[1], args[0])};
                      })[0];
}

bool mlir::rlx::worthThreads(Operation *at, int64_t elements) {
  return !at->getParentOfType<LoopLikeOpInterface>() &&
         (ShapedType::isDynamic(elements) || elements >= kMinThreadedElements);
}
