//===- VerifyUtils.cpp - diagnostics shared by the rlx verifiers ----------===//
#include "VerifyUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::rlx;

static ShapedType shapedOf(Value v) { return cast<ShapedType>(v.getType()); }

LogicalResult mlir::rlx::verifyRank(Operation *op, Value value, StringRef name,
                                    int64_t rank) {
  int64_t actual = shapedOf(value).getRank();
  if (actual != rank)
    return op->emitOpError() << "expects '" << name << "' to have rank " << rank
                             << ", got " << actual;
  return success();
}

LogicalResult mlir::rlx::verifyRankIn(Operation *op, Value value,
                                      StringRef name, ArrayRef<int64_t> ranks) {
  int64_t actual = shapedOf(value).getRank();
  if (llvm::is_contained(ranks, actual))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "expects '" << name << "' to have rank ";
  llvm::interleave(ranks, diag, " or ");
  return diag << ", got " << actual;
}

LogicalResult mlir::rlx::verifyDimsMatch(Operation *op, Value a,
                                         StringRef aName, int64_t da, Value b,
                                         StringRef bName, int64_t db) {
  int64_t x = shapedOf(a).getDimSize(da), y = shapedOf(b).getDimSize(db);
  if (ShapedType::isDynamic(x) || ShapedType::isDynamic(y)) {
    if (isCollectingShapeContract())
      recordShapeRelation(
          {ShapeRelation::Kind::Equal,
           {{a, da}, {b, db}},
           getAffineSymbolExpr(0, op->getContext()),
           getAffineSymbolExpr(1, op->getContext()),
           AffineExpr(),
           ("expects dim " + Twine(da) + " of '" + aName + "' to equal dim " +
            Twine(db) + " of '" + bName + "'")
               .str()});
    return success();
  }
  if (x == y)
    return success();
  return op->emitOpError() << "expects dim " << da << " of '" << aName << "' ("
                           << x << ") to equal dim " << db << " of '" << bName
                           << "' (" << y << ")";
}

LogicalResult mlir::rlx::verifyDimEquals(Operation *op, Value value,
                                         StringRef name, int64_t d,
                                         int64_t expected, StringRef what) {
  int64_t x = shapedOf(value).getDimSize(d);
  if (ShapedType::isDynamic(x) && !ShapedType::isDynamic(expected) &&
      isCollectingShapeContract())
    recordShapeRelation({ShapeRelation::Kind::Equal,
                         {{value, d}},
                         getAffineSymbolExpr(0, op->getContext()),
                         getAffineConstantExpr(expected, op->getContext()),
                         AffineExpr(),
                         ("expects dim " + Twine(d) + " of '" + name +
                          "' to equal " + what + " (" + Twine(expected) + ")")
                             .str()});
  if (ShapedType::isDynamic(x) || ShapedType::isDynamic(expected) ||
      x == expected)
    return success();
  return op->emitOpError() << "expects dim " << d << " of '" << name << "' ("
                           << x << ") to equal " << what << " (" << expected
                           << ")";
}

LogicalResult mlir::rlx::verifyDimDivisible(Operation *op, Value value,
                                            StringRef name, int64_t d,
                                            int64_t divisor, StringRef what) {
  MLIRContext *ctx = op->getContext();
  return verifyDimRelation(
      op, ShapeRelation::Kind::Equal, {{value, name, d}},
      getAffineSymbolExpr(0, ctx) % divisor, getAffineConstantExpr(0, ctx),
      "expects dim " + Twine(d) + " of '" + name + "' to be divisible by " +
          what + " (" + Twine(divisor) + ")");
}

/// The value of `expr` with the static `sizes` for its symbols.
static std::optional<int64_t> evaluate(AffineExpr expr,
                                       ArrayRef<int64_t> sizes) {
  SmallVector<AffineExpr> constants;
  for (int64_t s : sizes)
    constants.push_back(getAffineConstantExpr(s, expr.getContext()));
  auto folded = dyn_cast<AffineConstantExpr>(expr.replaceSymbols(constants));
  if (!folded)
    return std::nullopt;
  return folded.getValue();
}

LogicalResult mlir::rlx::verifyDimRelation(Operation *op,
                                           ShapeRelation::Kind kind,
                                           ArrayRef<NamedDim> dims,
                                           AffineExpr lhs, AffineExpr rhs,
                                           const Twine &description,
                                           AffineExpr rhsMin) {
  SmallVector<int64_t> sizes;
  for (const NamedDim &n : dims)
    sizes.push_back(shapedOf(n.value).getDimSize(n.dim));
  if (llvm::any_of(sizes, ShapedType::isDynamic)) {
    if (isCollectingShapeContract()) {
      ShapeRelation relation{kind, {}, lhs, rhs, rhsMin, description.str()};
      for (const NamedDim &n : dims)
        relation.dims.push_back({n.value, n.dim});
      recordShapeRelation(std::move(relation));
    }
    return success();
  }
  std::optional<int64_t> l = evaluate(lhs, sizes), r = evaluate(rhs, sizes);
  if (!l || !r)
    return success();
  if (rhsMin) {
    std::optional<int64_t> m = evaluate(rhsMin, sizes);
    if (!m)
      return success();
    r = std::min(*r, *m);
  }
  bool holds = kind == ShapeRelation::Kind::Equal    ? *l == *r
               : kind == ShapeRelation::Kind::AtMost ? *l <= *r
                                                     : *l == *r || *l == 1;
  if (holds)
    return success();
  InFlightDiagnostic diag = op->emitOpError() << description << ", got ";
  llvm::interleaveComma(dims, diag, [&](const NamedDim &n) {
    diag << "dim " << n.dim << " of '" << n.name
         << "' = " << shapedOf(n.value).getDimSize(n.dim);
  });
  return diag;
}

LogicalResult mlir::rlx::verifyWindowSweep(Operation *op, NamedDim out,
                                           NamedDim in, NamedDim kernel,
                                           int64_t kernelSize, int64_t stride,
                                           int64_t pad, int64_t dilation,
                                           bool ceilMode) {
  MLIRContext *ctx = op->getContext();
  // Symbols: s0 = in, s1 = kernel (if a dim), then out.
  SmallVector<NamedDim, 3> dims = {in};
  AffineExpr i = getAffineSymbolExpr(0, ctx);
  AffineExpr k = getAffineConstantExpr(kernelSize, ctx);
  std::string kernelText = std::to_string(kernelSize);
  if (kernel.value) {
    dims.push_back(kernel);
    k = getAffineSymbolExpr(1, ctx);
    kernelText =
        ("dim " + Twine(kernel.dim) + " of '" + kernel.name + "'").str();
  }
  std::string inText = ("dim " + Twine(in.dim) + " of '" + in.name + "'").str();
  AffineExpr window = (k - 1) * dilation + 1;
  if (failed(verifyDimRelation(
          op, ShapeRelation::Kind::AtMost, dims, window, i + 2 * pad,
          "expects " + inText + " plus twice the padding (" + Twine(pad) +
              ") to hold one window of " + kernelText + " dilated by " +
              Twine(dilation))))
    return failure();
  AffineExpr o = getAffineSymbolExpr(dims.size(), ctx);
  dims.push_back(out);
  std::string formula = "(" + inText + " + 2*" + std::to_string(pad) + " - " +
                        std::to_string(dilation) + "*(" + kernelText +
                        " - 1) - 1) / " + std::to_string(stride);
  AffineExpr span = i + 2 * pad - window;
  if (!ceilMode)
    return verifyDimRelation(
        op, ShapeRelation::Kind::Equal, dims, o, span.floorDiv(stride) + 1,
        "expects dim " + Twine(out.dim) + " of '" + out.name +
            "' to equal floor(" + formula + ") + 1");
  // PyTorch drops a last window that would start in the right padding:
  // out = min(ceil(span / s) + 1, ceil((in + pad) / s)), as padding <= the
  // window / 2 makes span <= in + pad.
  return verifyDimRelation(
      op, ShapeRelation::Kind::Equal, dims, o, span.ceilDiv(stride) + 1,
      "expects dim " + Twine(out.dim) + " of '" + out.name +
          "' to equal min(ceil(" + formula + ") + 1, ceil((" + inText + " + " +
          Twine(pad) + ") / " + Twine(stride) + "))",
      (i + pad).ceilDiv(stride));
}

LogicalResult mlir::rlx::verifyCompatibleShapes(Operation *op, Value a,
                                                StringRef aName, Value b,
                                                StringRef bName) {
  ShapedType ta = shapedOf(a), tb = shapedOf(b);
  if (ta.getRank() != tb.getRank())
    return op->emitOpError() << "expects '" << aName << "' and '" << bName
                             << "' to have the same rank, got " << ta.getRank()
                             << " and " << tb.getRank();
  for (int64_t d = 0, e = ta.getRank(); d < e; ++d)
    if (failed(verifyDimsMatch(op, a, aName, d, b, bName, d)))
      return failure();
  return success();
}

LogicalResult mlir::rlx::verifySameElementType(Operation *op, Value a,
                                               StringRef aName, Value b,
                                               StringRef bName) {
  Type ea = shapedOf(a).getElementType(), eb = shapedOf(b).getElementType();
  if (ea == eb)
    return success();
  return op->emitOpError() << "expects '" << aName << "' and '" << bName
                           << "' to have the same element type, got " << ea
                           << " and " << eb;
}

LogicalResult mlir::rlx::verifyElementwise(Operation *op) {
  SmallVector<std::pair<Value, std::string>> values;
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    values.push_back({v, ("operand #" + Twine(i)).str()});
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    values.push_back({v, ("result #" + Twine(i)).str()});
  for (size_t i = 1; i < values.size(); ++i) {
    if (failed(verifySameElementType(op, values[0].first, values[0].second,
                                     values[i].first, values[i].second)) ||
        failed(verifyCompatibleShapes(op, values[0].first, values[0].second,
                                      values[i].first, values[i].second)))
      return failure();
  }
  // Static dims must also agree among the others when values[0]'s is dynamic
  // (x: ?, dy: 4, result: 5 can never run).
  for (size_t i = 1; i < values.size(); ++i)
    for (size_t j = i + 1; j < values.size(); ++j)
      if (failed(verifyCompatibleShapes(op, values[i].first, values[i].second,
                                        values[j].first, values[j].second)))
        return failure();
  return success();
}

FailureOr<int64_t> mlir::rlx::verifyAxis(Operation *op, int64_t axis,
                                         int64_t rank, StringRef attrName) {
  if (std::optional<int64_t> normalized = normalizeAxis(axis, rank))
    return *normalized;
  return op->emitOpError() << "'" << attrName << "' " << axis
                           << " is out of range for rank " << rank;
}

LogicalResult mlir::rlx::verifyHw(Operation *op, StringRef attrName,
                                  ArrayRef<int64_t> values, int64_t minValue) {
  if (values.size() != 2)
    return op->emitOpError()
           << "expects '" << attrName << "' to have 2 values (h, w), got "
           << values.size();
  for (int64_t v : values)
    if (v < minValue)
      return op->emitOpError()
             << "expects '" << attrName << "' values to be >= " << minValue
             << ", got " << v;
  return success();
}

/// The byte size of `type`'s static part, or std::nullopt if it overflows.
static std::optional<int64_t> staticByteSize(RankedTensorType type) {
  Type element = type.getElementType();
  int64_t bytes = element.isIntOrFloat()
                      ? llvm::divideCeil(element.getIntOrFloatBitWidth(), 8)
                      : 1;
  std::optional<int64_t> size = bytes;
  for (int64_t d : type.getShape())
    if (size && !ShapedType::isDynamic(d))
      size = llvm::checkedMul(*size, d);
  return size;
}

LogicalResult mlir::rlx::verifyTensorByteSizes(Operation *op) {
  auto check = [&](Value value, StringRef kind,
                   unsigned index) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || staticByteSize(type))
      return success();
    return op->emitOpError() << "expects the byte size of " << kind << " #"
                             << index << " (" << type << ") to fit in 64 bits";
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(check(v, "operand", i)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(check(v, "result", i)))
      return failure();
  return success();
}
