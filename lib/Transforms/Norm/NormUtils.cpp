//===- NormUtils.cpp - statistics shared by the norm rewrites -------------===//
#include "Norm/NormUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

Value mlir::rlx::buildInverseCount(OpBuilder &b, Location loc, Value tensor,
                                   ArrayRef<int64_t> dims, Type type) {
  auto shaped = cast<RankedTensorType>(tensor.getType());
  int64_t staticCount = 1;
  Value dynamicCount;
  for (int64_t d : dims) {
    if (!shaped.isDynamicDim(d)) {
      staticCount *= shaped.getDimSize(d);
      continue;
    }
    Value size = tensor::DimOp::create(b, loc, tensor, d);
    dynamicCount = dynamicCount
                       ? arith::MulIOp::create(b, loc, dynamicCount, size)
                       : size;
  }
  if (!dynamicCount)
    return floatConst(b, loc, type, 1.0 / static_cast<double>(staticCount));
  if (staticCount != 1)
    dynamicCount = arith::MulIOp::create(b, loc, dynamicCount,
                                         indexConst(b, loc, staticCount));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), dynamicCount);
  Value asFloat = arith::SIToFPOp::create(b, loc, type, asInt);
  return arith::DivFOp::create(b, loc, floatConst(b, loc, type, 1.0), asFloat);
}

SmallVector<OpFoldResult> mlir::rlx::keptSizes(OpBuilder &b, Location loc,
                                               Value domain,
                                               ArrayRef<int64_t> reduced) {
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(mixedSizes(b, loc, domain)))
    if (!llvm::is_contained(reduced, static_cast<int64_t>(d)))
      sizes.push_back(size);
  return sizes;
}

SmallVector<Value> mlir::rlx::buildSums(OpBuilder &b, Location loc,
                                        Value domain, ArrayRef<int64_t> reduced,
                                        ValueRange inputs,
                                        ArrayRef<AffineMap> maps,
                                        unsigned numSums, GenericBody terms) {
  auto type = cast<RankedTensorType>(domain.getType());
  int64_t rank = type.getRank();
  Type elementType = type.getElementType();
  SmallVector<OpFoldResult> sizes = keptSizes(b, loc, domain, reduced);
  Value zeros =
      filled(b, loc, tensor::EmptyOp::create(b, loc, sizes, elementType), 0.0);
  SmallVector<Value> inits(numSums, zeros);
  SmallVector<AffineMap> allMaps(maps);
  allMaps.append(numSums, dropDimsMap(b.getContext(), rank, reduced));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange(ValueRange(inits)), inputs, inits, allMaps,
      iteratorTypes(rank, reduced),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        ValueRange accs = args.take_back(numSums);
        SmallVector<Value> values = terms(nb, nloc, args.drop_back(numSums));
        SmallVector<Value> sums;
        for (auto [acc, v] : llvm::zip_equal(accs, values))
          sums.push_back(arith::AddFOp::create(nb, nloc, acc, v));
        linalg::YieldOp::create(nb, nloc, sums);
      });
  return SmallVector<Value>(generic.getResults());
}

SmallVector<Value> mlir::rlx::buildParallel(OpBuilder &b, Location loc,
                                            ArrayRef<OpFoldResult> sizes,
                                            Type elementType, ValueRange inputs,
                                            ArrayRef<AffineMap> maps,
                                            unsigned numResults,
                                            GenericBody body) {
  int64_t rank = sizes.size();
  Value init = tensor::EmptyOp::create(b, loc, sizes, elementType);
  SmallVector<Value> inits(numResults, init);
  SmallVector<AffineMap> allMaps(maps);
  allMaps.append(numResults, b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange(ValueRange(inits)), inputs, inits, allMaps,
      iteratorTypes(rank), [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc,
                                body(nb, nloc, args.drop_back(numResults)));
      });
  return SmallVector<Value>(generic.getResults());
}

Value mlir::rlx::buildSum(OpBuilder &b, Location loc, Value tensor,
                          ArrayRef<int64_t> reduced) {
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  return buildSums(b, loc, tensor, reduced, {tensor},
                   {b.getMultiDimIdentityMap(rank)}, 1,
                   [](OpBuilder &, Location, ValueRange args) {
                     return SmallVector<Value>{args[0]};
                   })[0];
}

Value mlir::rlx::buildRstd(OpBuilder &b, Location loc, Value sum,
                           Value invCount, double eps) {
  Value mean = arith::MulFOp::create(b, loc, sum, invCount);
  Value shifted = arith::AddFOp::create(
      b, loc, mean, floatConst(b, loc, sum.getType(), eps));
  return math::RsqrtOp::create(b, loc, shifted);
}

NormStats mlir::rlx::buildMeanRstd(OpBuilder &b, Location loc, Value x,
                                   ArrayRef<int64_t> reduced, double eps) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  Type e = type.getElementType();
  MLIRContext *ctx = b.getContext();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap stat = dropDimsMap(ctx, rank, reduced);
  Value inv = buildInverseCount(b, loc, x, reduced, e);

  // s1 = sum(x)
  Value s1 = buildSum(b, loc, x, reduced);
  // s2 = sum((x - s1/n)^2)
  Value s2 = buildSums(
      b, loc, x, reduced, {x, s1}, {id, stat}, 1,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value mean = arith::MulFOp::create(nb, nloc, args[1], inv);
        Value d = arith::SubFOp::create(nb, nloc, args[0], mean);
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, d, d)};
      })[0];
  // mean = s1/n, rstd = rsqrt(s2/n + eps)
  SmallVector<OpFoldResult> sizes = keptSizes(b, loc, x, reduced);
  AffineMap statId = b.getMultiDimIdentityMap(sizes.size());
  SmallVector<Value> stats = buildParallel(
      b, loc, sizes, e, {s1, s2}, {statId, statId}, 2,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value mean = arith::MulFOp::create(nb, nloc, args[0], inv);
        return SmallVector<Value>{mean, buildRstd(nb, nloc, args[1], inv, eps)};
      });
  return {stats[0], stats[1], inv};
}

NormStats mlir::rlx::buildRmsRstd(OpBuilder &b, Location loc, Value x,
                                  ArrayRef<int64_t> reduced, double eps) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  Type e = type.getElementType();
  Value inv = buildInverseCount(b, loc, x, reduced, e);
  // s = sum(x^2)
  Value s = buildSums(b, loc, x, reduced, {x}, {b.getMultiDimIdentityMap(rank)},
                      1, [](OpBuilder &nb, Location nloc, ValueRange args) {
                        return SmallVector<Value>{
                            arith::MulFOp::create(nb, nloc, args[0], args[0])};
                      })[0];
  // rstd = rsqrt(s/n + eps)
  SmallVector<OpFoldResult> sizes = keptSizes(b, loc, x, reduced);
  Value rstd =
      buildParallel(b, loc, sizes, e, {s},
                    {b.getMultiDimIdentityMap(sizes.size())}, 1,
                    [&](OpBuilder &nb, Location nloc, ValueRange args) {
                      return SmallVector<Value>{
                          buildRstd(nb, nloc, args[0], inv, eps)};
                    })[0];
  return {Value(), rstd, inv};
}

/// [[0], ..., [dim, dim + 1], ...] for a rank-`rank` expanded tensor.
static SmallVector<ReassociationIndices> groupReassociation(int64_t rank,
                                                            int64_t dim) {
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == dim + 1)
      continue;
    if (d == dim)
      reassociation.push_back({d, d + 1});
    else
      reassociation.push_back({d});
  }
  return reassociation;
}

Value mlir::rlx::expandGroups(OpBuilder &b, Location loc, Value tensor,
                              int64_t dim, int64_t groups) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = mixedSizes(b, loc, tensor);
  SmallVector<OpFoldResult> outSizes;
  SmallVector<int64_t> shape;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (d != dim) {
      outSizes.push_back(sizes[d]);
      shape.push_back(type.getDimSize(d));
      continue;
    }
    outSizes.push_back(b.getIndexAttr(groups));
    shape.push_back(groups);
    if (type.isDynamicDim(d)) {
      outSizes.push_back(
          arith::DivUIOp::create(b, loc, cast<Value>(sizes[d]),
                                 indexConst(b, loc, groups))
              .getResult());
      shape.push_back(ShapedType::kDynamic);
    } else {
      outSizes.push_back(b.getIndexAttr(type.getDimSize(d) / groups));
      shape.push_back(type.getDimSize(d) / groups);
    }
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(
      b, loc, resultType, tensor,
      groupReassociation(resultType.getRank(), dim), outSizes);
}

Value mlir::rlx::collapseGroups(OpBuilder &b, Location loc, Value tensor,
                                int64_t dim) {
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  return tensor::CollapseShapeOp::create(b, loc, tensor,
                                         groupReassociation(rank, dim));
}

AffineMap mlir::rlx::keepDimsMap(MLIRContext *ctx, int64_t rank,
                                 ArrayRef<int64_t> kept) {
  return dropDimsMap(ctx, rank, otherDims(rank, kept));
}

SmallVector<int64_t> mlir::rlx::otherDims(int64_t rank,
                                          ArrayRef<int64_t> kept) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(kept, d))
      dims.push_back(d);
  return dims;
}
