//===- NormOps.cpp - Norm op verifiers ------------------------------------===//
//
// Two shared verifiers: one for the row norms (layer/rms, normalised over the
// last axis, gamma/beta [D]) and one for group norm (x [N,C,H,W], gamma/beta
// [C], C divisible by num_groups). Each op's verify() says which operands play
// which role and whether its result has x's shape or is a [D]/[C] parameter
// gradient.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
using Named = std::pair<Value, StringRef>;

/// The operands and result of one norm op, by role.
struct NormOperands {
  /// The tensor being normalised (dy for layer_norm_backward_beta).
  Named x;
  /// Further operands of x's shape (dy).
  SmallVector<Named, 1> likeX;
  /// [D] or [C] operands (gamma, beta).
  SmallVector<Named, 2> params;
  /// The result, and whether it is a [D]/[C] parameter gradient.
  Named result;
  bool resultIsParam = false;
};
} // namespace

static LogicalResult verifyEps(Operation *op, std::optional<APFloat> eps) {
  if (!eps)
    return success();
  // Any finite eps is accepted, as in PyTorch (OpInfo samples use -0.5): the
  // statistics are only defined where var + eps > 0, which is a property of
  // the data, not of the op. NaN and Inf would poison every result.
  if (!eps->isFinite())
    return op->emitOpError()
           << "expects 'eps' to be finite, got " << eps->convertToDouble();
  return success();
}

/// Element types, x-shaped operands and parameter lengths; `normDim` is the
/// dim of x that gamma/beta (and parameter results) index.
static LogicalResult verifyRoles(Operation *op, const NormOperands &o,
                                 int64_t normDim) {
  auto [x, xName] = o.x;
  for (const Named &n : o.likeX)
    if (failed(verifySameElementType(op, x, xName, n.first, n.second)) ||
        failed(verifyCompatibleShapes(op, x, xName, n.first, n.second)))
      return failure();
  SmallVector<Named, 3> params(o.params.begin(), o.params.end());
  if (o.resultIsParam)
    params.push_back(o.result);
  for (const Named &n : params)
    if (failed(verifySameElementType(op, x, xName, n.first, n.second)) ||
        failed(verifyRank(op, n.first, n.second, 1)) ||
        failed(verifyDimsMatch(op, n.first, n.second, 0, x, xName, normDim)))
      return failure();
  if (!o.resultIsParam &&
      (failed(verifySameElementType(op, x, xName, o.result.first,
                                    o.result.second)) ||
       failed(verifyCompatibleShapes(op, x, xName, o.result.first,
                                     o.result.second))))
    return failure();
  // When x's dims are dynamic the others must still agree among themselves
  // (e.g. gamma [5] and beta [6]).
  SmallVector<Named, 2> shaped(o.likeX.begin(), o.likeX.end());
  if (!o.resultIsParam)
    shaped.push_back(o.result);
  for (size_t i = 0; i < shaped.size(); ++i)
    for (size_t j = i + 1; j < shaped.size(); ++j)
      if (failed(verifyCompatibleShapes(op, shaped[i].first, shaped[i].second,
                                        shaped[j].first, shaped[j].second)))
        return failure();
  for (size_t i = 0; i < params.size(); ++i) {
    for (size_t j = i + 1; j < params.size(); ++j)
      if (failed(verifyDimsMatch(op, params[j].first, params[j].second, 0,
                                 params[i].first, params[i].second, 0)))
        return failure();
    for (const Named &n : shaped)
      if (failed(verifyDimsMatch(op, params[i].first, params[i].second, 0,
                                 n.first, n.second, normDim)))
        return failure();
  }
  return success();
}

/// layer_norm / rms_norm and their gradients: x has rank >= 1, `axis` names
/// its last dim, gamma/beta (and parameter gradients) are [D].
static LogicalResult verifyRowNorm(Operation *op, const NormOperands &o,
                                   int64_t axis,
                                   std::optional<APFloat> eps = std::nullopt) {
  auto xType = cast<RankedTensorType>(o.x.first.getType());
  int64_t rank = xType.getRank();
  if (rank < 1)
    return op->emitOpError()
           << "expects '" << o.x.second << "' to have rank >= 1, got 0";
  FailureOr<int64_t> normalized = verifyAxis(op, axis, rank);
  if (failed(normalized))
    return failure();
  if (*normalized != rank - 1)
    return op->emitOpError() << "expects 'axis' to be the last axis ("
                             << rank - 1 << " or -1), got " << axis;
  if (failed(verifyEps(op, eps)))
    return failure();
  return verifyRoles(op, o, rank - 1);
}

/// group_norm and its gradients: x is [N, C, H, W], num_groups >= 1 divides
/// C, gamma/beta (and parameter gradients) are [C]. C may be static in any
/// of them (e.g. a static gamma with a dynamic x): the first static one is
/// checked for divisibility, verifyRoles makes the others equal to it.
static LogicalResult verifyGroupNorm(Operation *op, const NormOperands &o,
                                     int64_t numGroups, APFloat eps) {
  if (failed(verifyRank(op, o.x.first, o.x.second, 4)))
    return failure();
  if (numGroups < 1)
    return op->emitOpError()
           << "expects 'num_groups' to be >= 1, got " << numGroups;
  if (failed(verifyEps(op, eps)) || failed(verifyRoles(op, o, 1)))
    return failure();
  SmallVector<std::pair<Named, int64_t>> channelDims = {{o.x, 1}};
  for (const Named &n : o.likeX)
    channelDims.push_back({n, 1});
  for (const Named &n : o.params)
    channelDims.push_back({n, 0});
  channelDims.push_back({o.result, o.resultIsParam ? 0 : 1});
  for (auto [named, dim] : channelDims) {
    int64_t channels =
        cast<RankedTensorType>(named.first.getType()).getDimSize(dim);
    if (ShapedType::isDynamic(channels)) {
      // Checked at run time (the op's shape contract).
      if (failed(verifyDimDivisible(op, named.first, named.second, dim,
                                    numGroups, "'num_groups'")))
        return failure();
      continue;
    }
    if (channels % numGroups != 0)
      return op->emitOpError()
             << "expects the channel count (dim " << dim << " of '"
             << named.second << "', " << channels
             << ") to be divisible by 'num_groups' (" << numGroups << ")";
    break;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Forward ops
//===----------------------------------------------------------------------===//

LogicalResult LayerNormOp::verify() {
  return verifyRowNorm(*this,
                       {{getX(), "x"},
                        {},
                        {{getGamma(), "gamma"}, {getBeta(), "beta"}},
                        {getY(), "y"}},
                       getAxis(), getEps());
}

LogicalResult RmsNormOp::verify() {
  return verifyRowNorm(*this,
                       {{getX(), "x"},
                        {},
                        {{getGamma(), "gamma"}, {getBeta(), "beta"}},
                        {getY(), "y"}},
                       getAxis(), getEps());
}

LogicalResult GroupNormOp::verify() {
  return verifyGroupNorm(*this,
                         {{getX(), "x"},
                          {},
                          {{getGamma(), "gamma"}, {getBeta(), "beta"}},
                          {getY(), "y"}},
                         getNumGroups(), getEps());
}

//===----------------------------------------------------------------------===//
// Layer norm gradients
//===----------------------------------------------------------------------===//

LogicalResult LayerNormBackwardInputOp::verify() {
  return verifyRowNorm(*this,
                       {{getX(), "x"},
                        {{getDy(), "dy"}},
                        {{getGamma(), "gamma"}},
                        {getDx(), "dx"}},
                       getAxis(), getEps());
}

LogicalResult LayerNormBackwardGammaOp::verify() {
  return verifyRowNorm(
      *this,
      {{getX(), "x"}, {{getDy(), "dy"}}, {}, {getDgamma(), "dgamma"}, true},
      getAxis(), getEps());
}

LogicalResult LayerNormBackwardBetaOp::verify() {
  return verifyRowNorm(
      *this, {{getDy(), "dy"}, {}, {}, {getDbeta(), "dbeta"}, true}, getAxis());
}

//===----------------------------------------------------------------------===//
// RMS norm gradients (operands x, gamma, beta, dy)
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifyRmsBackward(OpTy op, Named result,
                                       bool resultIsParam) {
  return verifyRowNorm(op,
                       {{op.getX(), "x"},
                        {{op.getDy(), "dy"}},
                        {{op.getGamma(), "gamma"}, {op.getBeta(), "beta"}},
                        result,
                        resultIsParam},
                       op.getAxis(), op.getEps());
}

LogicalResult RmsNormBackwardInputOp::verify() {
  return verifyRmsBackward(*this, {getDx(), "dx"}, false);
}
LogicalResult RmsNormBackwardGammaOp::verify() {
  return verifyRmsBackward(*this, {getDgamma(), "dgamma"}, true);
}
LogicalResult RmsNormBackwardBetaOp::verify() {
  return verifyRmsBackward(*this, {getDbeta(), "dbeta"}, true);
}

//===----------------------------------------------------------------------===//
// Group norm gradients
//===----------------------------------------------------------------------===//

LogicalResult GroupNormBackwardInputOp::verify() {
  return verifyGroupNorm(*this,
                         {{getX(), "x"},
                          {{getDy(), "dy"}},
                          {{getGamma(), "gamma"}, {getBeta(), "beta"}},
                          {getDx(), "dx"}},
                         getNumGroups(), getEps());
}

LogicalResult GroupNormBackwardGammaOp::verify() {
  return verifyGroupNorm(
      *this,
      {{getX(), "x"}, {{getDy(), "dy"}}, {}, {getDgamma(), "dgamma"}, true},
      getNumGroups(), getEps());
}

LogicalResult GroupNormBackwardBetaOp::verify() {
  return verifyGroupNorm(
      *this,
      {{getX(), "x"}, {{getDy(), "dy"}}, {}, {getDbeta(), "dbeta"}, true},
      getNumGroups(), getEps());
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.cpp.inc"

void RlxDialect::registerNormOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxNormOps.cpp.inc"
      >();
}
