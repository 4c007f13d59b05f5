//===- VerifyUtils.cpp - diagnostics shared by the rlx verifiers ----------===//
#include "VerifyUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

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
  if (ShapedType::isDynamic(x) || ShapedType::isDynamic(y) || x == y)
    return success();
  return op->emitOpError() << "expects dim " << da << " of '" << aName << "' ("
                           << x << ") to equal dim " << db << " of '" << bName
                           << "' (" << y << ")";
}

LogicalResult mlir::rlx::verifyDimEquals(Operation *op, Value value,
                                         StringRef name, int64_t d,
                                         int64_t expected, StringRef what) {
  int64_t x = shapedOf(value).getDimSize(d);
  if (ShapedType::isDynamic(x) || ShapedType::isDynamic(expected) ||
      x == expected)
    return success();
  return op->emitOpError() << "expects dim " << d << " of '" << name << "' ("
                           << x << ") to equal " << what << " (" << expected
                           << ")";
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
