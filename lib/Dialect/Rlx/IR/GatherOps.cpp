//===- GatherOps.cpp - Gather op verifiers --------------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.h"

#include "FamilyRegistration.h"
#include "RlxAD/Dialect/Rlx/IR/RlxShapes.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// The gather shape rule shared by gather and gather_backward: with a the
/// normalised `axis` of `table` and k = rank(indices),
///   shape(gathered) = shape(table)[:a] + shape(indices) + shape(table)[a+1:]
/// and `gathered` has the element type of `table`. `table` is the forward
/// table (gather) or the gradient result (gather_backward).
static LogicalResult verifyGatherShapes(Operation *op, Value table,
                                        StringRef tableName, Value indices,
                                        Value gathered, StringRef gatheredName,
                                        int64_t axis) {
  int64_t tableRank = cast<ShapedType>(table.getType()).getRank();
  int64_t k = cast<ShapedType>(indices.getType()).getRank();
  FailureOr<int64_t> a = verifyAxis(op, axis, tableRank);
  if (failed(a))
    return failure();
  if (failed(
          verifySameElementType(op, table, tableName, gathered, gatheredName)))
    return failure();
  int64_t rank = tableRank - 1 + k;
  int64_t actual = cast<ShapedType>(gathered.getType()).getRank();
  if (actual != rank)
    return op->emitOpError() << "expects '" << gatheredName << "' to have rank "
                             << rank << " (rank of '" << tableName
                             << "' - 1 + rank of 'indices'), got " << actual;
  for (int64_t d = 0; d < rank; ++d) {
    LogicalResult ok = d < *a ? verifyDimsMatch(op, gathered, gatheredName, d,
                                                table, tableName, d)
                       : d < *a + k
                           ? verifyDimsMatch(op, gathered, gatheredName, d,
                                             indices, "indices", d - *a)
                           : verifyDimsMatch(op, gathered, gatheredName, d,
                                             table, tableName, d - k + 1);
    if (failed(ok))
      return failure();
  }
  return success();
}

LogicalResult GatherOp::verify() {
  return verifyGatherShapes(*this, getTable(), "table", getIndices(), getY(),
                            "result", getAxis());
}

LogicalResult GatherBackwardOp::verify() {
  if (failed(verifyGatherShapes(*this, getDtable(), "result", getIndices(),
                                getDy(), "dy", getAxis())))
    return failure();
  std::optional<int64_t> paddingIdx = getPaddingIdx();
  if (!paddingIdx)
    return success();
  // verifyGatherShapes has checked the axis.
  auto resultType = cast<ShapedType>(getDtable().getType());
  int64_t a = *normalizeAxis(getAxis(), resultType.getRank());
  int64_t length = resultType.getDimSize(a);
  if (!ShapedType::isDynamic(length) &&
      (*paddingIdx < -length || *paddingIdx >= length))
    return emitOpError() << "expects 'padding_idx' (" << *paddingIdx
                         << ") to lie in [-" << length << ", " << length
                         << "), the rows of dim " << a << " of the result";
  return success();
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.cpp.inc"

void RlxDialect::registerGatherOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxGatherOps.cpp.inc"
      >();
}
