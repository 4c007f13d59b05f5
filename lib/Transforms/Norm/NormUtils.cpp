//===- NormUtils.cpp - statistics shared by the norm rewrites -------------===//
#include "Norm/NormUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

int64_t NormDomain::rank() const {
  return cast<RankedTensorType>(x.getType()).getRank();
}

Type NormDomain::elementType() const {
  return cast<RankedTensorType>(x.getType()).getElementType();
}

AffineMap NormDomain::identityMap() const {
  return AffineMap::getMultiDimIdentityMap(rank(), x.getContext());
}

AffineMap NormDomain::statMap() const {
  return identityMap().dropResults(reduced);
}

AffineMap NormDomain::paramMap() const {
  return AffineMap::getMultiDimMapWithTargets(rank(), paramDims,
                                              x.getContext());
}

SmallVector<int64_t> NormDomain::nonParamDims() const {
  SmallVector<int64_t> dims;
  for (int64_t d = 0, e = rank(); d < e; ++d)
    if (!llvm::is_contained(paramDims, d))
      dims.push_back(d);
  return dims;
}

NormDomain mlir::rlx::rowNormDomain(Value x) {
  int64_t last = cast<RankedTensorType>(x.getType()).getRank() - 1;
  return {x, {last}, {static_cast<unsigned>(last)}};
}

NormDomain mlir::rlx::groupNormDomain(Value xView) {
  int64_t rank = cast<ShapedType>(xView.getType()).getRank();
  return {xView, llvm::to_vector(llvm::seq<int64_t>(2, rank)), {1, 2}};
}

Value mlir::rlx::buildInverseCount(OpBuilder &b, Location loc,
                                   const NormDomain &domain) {
  auto shaped = cast<RankedTensorType>(domain.x.getType());
  Type type = shaped.getElementType();
  int64_t staticCount = 1;
  Value dynamicCount;
  for (int64_t d : domain.reduced) {
    if (!shaped.isDynamicDim(d)) {
      staticCount *= shaped.getDimSize(d);
      continue;
    }
    Value size = tensor::DimOp::create(b, loc, domain.x, d);
    dynamicCount =
        dynamicCount ? arith::MulIOp::create(b, loc, dynamicCount, size) : size;
  }
  if (!dynamicCount)
    return floatConst(b, loc, type, 1.0 / static_cast<double>(staticCount));
  if (staticCount != 1)
    dynamicCount = arith::MulIOp::create(
        b, loc, dynamicCount,
        arith::ConstantIndexOp::create(b, loc, staticCount));
  Value asInt =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), dynamicCount);
  Value asFloat = arith::SIToFPOp::create(b, loc, type, asInt);
  return arith::DivFOp::create(b, loc, floatConst(b, loc, type, 1.0), asFloat);
}

Value mlir::rlx::buildRstd(OpBuilder &b, Location loc, Value sum,
                           Value invCount, double eps) {
  Value mean = arith::MulFOp::create(b, loc, sum, invCount);
  Value shifted = arith::AddFOp::create(b, loc, mean,
                                        floatConst(b, loc, sum.getType(), eps));
  return math::RsqrtOp::create(b, loc, shifted);
}

NormStats mlir::rlx::buildMeanRstd(OpBuilder &b, Location loc,
                                   const NormDomain &domain, double eps) {
  Value x = domain.x;
  AffineMap id = domain.identityMap(), stat = domain.statMap();
  Value inv = buildInverseCount(b, loc, domain);

  // s1 = sum(x)
  Value s1 = buildSum(b, loc, x, domain.reduced);
  // s2 = sum((x - s1/n)^2)
  Value s2 = buildSums(
      b, loc, x, domain.reduced, {{x, id}, {s1, stat}}, 1,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value mean = arith::MulFOp::create(nb, nloc, args[1], inv);
        Value d = arith::SubFOp::create(nb, nloc, args[0], mean);
        return SmallVector<Value>{arith::MulFOp::create(nb, nloc, d, d)};
      })[0];
  // mean = s1/n, rstd = rsqrt(s2/n + eps)
  SmallVector<OpFoldResult> sizes = sizesWithout(b, loc, x, domain.reduced);
  AffineMap row = b.getMultiDimIdentityMap(sizes.size());
  SmallVector<Value> stats = buildParallel(
      b, loc, sizes, domain.elementType(), {{s1, row}, {s2, row}}, 2,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value mean = arith::MulFOp::create(nb, nloc, args[0], inv);
        return SmallVector<Value>{mean, buildRstd(nb, nloc, args[1], inv, eps)};
      });
  return {stats[0], stats[1], inv};
}

NormStats mlir::rlx::buildRmsRstd(OpBuilder &b, Location loc,
                                  const NormDomain &domain, double eps) {
  Value x = domain.x;
  Value inv = buildInverseCount(b, loc, domain);
  // s = sum(x^2)
  Value s = buildSums(b, loc, x, domain.reduced, {{x, domain.identityMap()}}, 1,
                      [](OpBuilder &nb, Location nloc, ValueRange args) {
                        return SmallVector<Value>{
                            arith::MulFOp::create(nb, nloc, args[0], args[0])};
                      })[0];
  // rstd = rsqrt(s/n + eps)
  SmallVector<OpFoldResult> sizes = sizesWithout(b, loc, x, domain.reduced);
  Value rstd = buildParallel(
      b, loc, sizes, domain.elementType(),
      {{s, b.getMultiDimIdentityMap(sizes.size())}}, 1,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return SmallVector<Value>{buildRstd(nb, nloc, args[0], inv, eps)};
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
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
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
                                 arith::ConstantIndexOp::create(b, loc, groups))
              .getResult());
      shape.push_back(ShapedType::kDynamic);
    } else {
      outSizes.push_back(b.getIndexAttr(type.getDimSize(d) / groups));
      shape.push_back(type.getDimSize(d) / groups);
    }
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(
      b, loc, resultType, tensor, groupReassociation(resultType.getRank(), dim),
      outSizes);
}

Value mlir::rlx::collapseGroups(OpBuilder &b, Location loc, Value tensor,
                                int64_t dim) {
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  return tensor::CollapseShapeOp::create(b, loc, tensor,
                                         groupReassociation(rank, dim));
}

/// [[0], [1], [2, 3]]: the spatial dims of [N, C, H, W] as one.
static SmallVector<ReassociationIndices> spatialReassociation() {
  return {{0}, {1}, {2, 3}};
}

GroupViews mlir::rlx::expandGroupViews(OpBuilder &b, Location loc,
                                       int64_t groups, ValueRange xLike,
                                       ValueRange params) {
  GroupViews views;
  // Dynamic H or W keep their own dims: MLIR 22's expand-strided-metadata
  // crashes on the merged view when C is dynamic too. Every x-shaped tensor
  // takes the same view (x and dy may differ in which dims are static).
  bool merge = llvm::all_of(xLike, [](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    return !type.isDynamicDim(2) && !type.isDynamicDim(3);
  });
  for (Value v : xLike) {
    Value view = v;
    if (merge)
      view = tensor::CollapseShapeOp::create(b, loc, v, spatialReassociation());
    views.xLike.push_back(expandGroups(b, loc, view, 1, groups));
  }
  for (Value v : params)
    views.params.push_back(expandGroups(b, loc, v, 0, groups));
  return views;
}

Value mlir::rlx::collapseGroupView(OpBuilder &b, Location loc, Value view,
                                   Value like) {
  Value flat = collapseGroups(b, loc, view, 1);
  auto flatType = cast<RankedTensorType>(flat.getType());
  auto likeType = cast<RankedTensorType>(like.getType());
  if (flatType.getRank() == likeType.getRank())
    return flat; // the [N, G, C/G, H, W] view
  auto type =
      RankedTensorType::get(likeType.getShape(), flatType.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       spatialReassociation(),
                                       tensor::getMixedSizes(b, loc, like));
}
