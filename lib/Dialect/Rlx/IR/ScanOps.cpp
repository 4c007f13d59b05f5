//===- ScanOps.cpp - Scan op verifiers ------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// A value a region argument or yield must have, and what it stands for.
struct Expected {
  Type type;
  std::string what;
};
} // namespace

/// `length >= 1` and `0 <= num_checkpoints <= length`.
static LogicalResult verifyLengthAndCheckpoints(Operation *op, int64_t length,
                                                int64_t numCheckpoints) {
  if (length < 1)
    return op->emitOpError() << "expects 'length' to be >= 1, got " << length;
  if (numCheckpoints < 0 || numCheckpoints > length)
    return op->emitOpError()
           << "expects 'num_checkpoints' to be in [0, length = " << length
           << "], got " << numCheckpoints;
  // With checkpoints (0 < K < L) the segment bounds ceil(j * L / K) are
  // computed as (j * L + K - 1) / K for j <= K; that must not wrap.
  int64_t rows = scanTrajectoryRows(length, numCheckpoints);
  if (rows == length)
    return success();
  std::optional<int64_t> bound = llvm::checkedMul(rows, length);
  if (bound)
    bound = llvm::checkedAdd(*bound, rows);
  if (!bound)
    return op->emitOpError()
           << "expects the number of saved rows times 'length' (" << rows
           << " * " << length << ") to fit in 64 bits";
  return success();
}

/// Each xs_i is [length, ...step_i]; appends the step slice types.
static LogicalResult verifyXs(Operation *op, ValueRange xs, int64_t length,
                              SmallVectorImpl<Type> &stepTypes) {
  for (auto [i, x] : llvm::enumerate(xs)) {
    std::string name = "xs #" + std::to_string(i);
    auto type = cast<RankedTensorType>(x.getType());
    if (type.getRank() < 1)
      return op->emitOpError() << "expects '" << name
                               << "' to have rank >= 1 ([length, ...step])";
    if (failed(verifyDimEquals(op, x, name, 0, length, "'length'")))
      return failure();
    stepTypes.push_back(RankedTensorType::get(type.getShape().drop_front(),
                                              type.getElementType()));
  }
  return success();
}

/// `value` is [rows, *carry]: rank, leading dim, carry dims, element type.
static LogicalResult verifyStacked(Operation *op, Value value, StringRef name,
                                   Value init, int64_t rows,
                                   StringRef rowsWhat) {
  auto carry = cast<RankedTensorType>(init.getType());
  if (failed(verifyRank(op, value, name, carry.getRank() + 1)) ||
      failed(verifyDimEquals(op, value, name, 0, rows, rowsWhat)) ||
      failed(verifySameElementType(op, value, name, init, "init")))
    return failure();
  for (int64_t d = 0; d < carry.getRank(); ++d)
    if (failed(verifyDimsMatch(op, value, name, d + 1, init, "init", d)))
      return failure();
  return success();
}

/// The single block of `region` has the arguments `args` and ends in an
/// rlx.yield of `yields`.
static LogicalResult verifyRegion(Operation *op, Region &region, StringRef name,
                                  ArrayRef<Expected> args,
                                  ArrayRef<Expected> yields) {
  Block &block = region.front();
  if (block.getNumArguments() != args.size()) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects region '" << name << "' to have "
                              << args.size() << " arguments (";
    llvm::interleaveComma(args, diag,
                          [&](const Expected &e) { diag << e.what; });
    return diag << "), got " << block.getNumArguments();
  }
  for (auto [i, arg, want] : llvm::enumerate(block.getArguments(), args))
    if (arg.getType() != want.type)
      return op->emitOpError()
             << "expects argument #" << i << " of region '" << name << "' ("
             << want.what << ") to have type " << want.type << ", got "
             << arg.getType();

  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError()
           << "expects region '" << name << "' to end with 'rlx.yield'";
  if (yield.getNumOperands() != yields.size()) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects region '" << name << "' to yield "
                              << yields.size() << " values (";
    llvm::interleaveComma(yields, diag,
                          [&](const Expected &e) { diag << e.what; });
    return diag << "), got " << yield.getNumOperands();
  }
  for (auto [i, value, want] : llvm::enumerate(yield.getOperands(), yields))
    if (value.getType() != want.type)
      return op->emitOpError()
             << "expects value #" << i << " yielded by region '" << name
             << "' (" << want.what << ") to have type " << want.type << ", got "
             << value.getType();
  return success();
}

/// Arguments (carry, x_t...) of `body` / `forward_body`.
static SmallVector<Expected> forwardArgs(Type carry, ArrayRef<Type> steps) {
  SmallVector<Expected> args{{carry, "carry"}};
  for (auto [i, t] : llvm::enumerate(steps))
    args.push_back({t, "step of xs #" + std::to_string(i)});
  return args;
}

/// `result` has the element type and a shape compatible with `like`.
static LogicalResult verifyResultLike(Operation *op, Value result,
                                      StringRef name, Value like,
                                      StringRef likeName) {
  if (failed(verifySameElementType(op, result, name, like, likeName)) ||
      failed(verifyCompatibleShapes(op, result, name, like, likeName)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// rlx.scan
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  int64_t length = getLength(), k = getNumCheckpoints();
  SmallVector<Type> steps;
  if (failed(verifyLengthAndCheckpoints(*this, length, k)) ||
      failed(verifyXs(*this, getXs(), length, steps)))
    return failure();
  Type carry = getInit().getType();
  if (failed(verifyRegion(*this, getBody(), "body", forwardArgs(carry, steps),
                          {{carry, "new carry"}})) ||
      failed(verifyResultLike(*this, getFinalCarry(), "final_carry", getInit(),
                              "init")))
    return failure();
  if (getSaveTrajectory() != static_cast<bool>(getTrajectory()))
    return emitOpError() << "expects a 'trajectory' result if and only if "
                            "'save_trajectory' is set";
  if (!getTrajectory())
    return success();
  if (failed(verifyStacked(*this, getTrajectory(), "trajectory", getInit(),
                           scanTrajectoryRows(length, k),
                           "the number of saved rows")))
    return failure();
  for (int64_t d = 0, e = getInit().getType().getRank(); d < e; ++d)
    if (failed(verifyDimsMatch(*this, getFinalCarry(), "final_carry", d,
                               getTrajectory(), "trajectory", d + 1)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// rlx.scan_backward, rlx.scan_backward_xs
//===----------------------------------------------------------------------===//

/// The rules the two gradients share; appends the step slice types.
template <typename OpTy>
static LogicalResult verifyScanGradient(OpTy op, SmallVectorImpl<Type> &steps) {
  int64_t length = op.getLength(), k = op.getNumCheckpoints();
  if (failed(verifyLengthAndCheckpoints(op, length, k)) ||
      failed(verifyXs(op, op.getXs(), length, steps)) ||
      failed(verifyStacked(op, op.getTrajectory(), "trajectory", op.getInit(),
                           scanTrajectoryRows(length, k),
                           "the number of saved rows")) ||
      failed(verifyStacked(op, op.getUpstream(), "upstream", op.getInit(),
                           length, "'length'")))
    return failure();
  // Carry dims agree between the stacked operands even when init's are
  // dynamic.
  int64_t carryRank = op.getInit().getType().getRank();
  for (int64_t d = 1; d <= carryRank; ++d)
    if (failed(verifyDimsMatch(op, op.getUpstream(), "upstream", d,
                               op.getTrajectory(), "trajectory", d)))
      return failure();

  Type carry = op.getInit().getType();
  SmallVector<Expected> vjpArgs = forwardArgs(carry, steps);
  vjpArgs.push_back({carry, "d_out"});
  SmallVector<Expected> vjpYields{{carry, "dcarry"}};
  for (auto [i, t] : llvm::enumerate(steps))
    vjpYields.push_back({t, "dx of xs #" + std::to_string(i)});
  if (failed(verifyRegion(op, op.getBodyVjp(), "body_vjp", vjpArgs, vjpYields)))
    return failure();

  bool needsForward = 0 < k && k < length;
  Region &forward = op.getForwardBody();
  if (needsForward == forward.empty())
    return op.emitOpError()
           << "expects region 'forward_body' to be "
           << (needsForward ? "present" : "empty")
           << " when num_checkpoints = " << k << " and length = " << length
           << " (it recomputes carries only when 0 < num_checkpoints < length)";
  if (needsForward)
    return verifyRegion(op, forward, "forward_body", forwardArgs(carry, steps),
                        {{carry, "new carry"}});
  return success();
}

LogicalResult ScanBackwardOp::verify() {
  SmallVector<Type> steps;
  if (failed(verifyScanGradient(*this, steps)))
    return failure();
  if (failed(verifyResultLike(*this, getDinit(), "dinit", getInit(), "init")))
    return failure();
  for (int64_t d = 0, e = getInit().getType().getRank(); d < e; ++d)
    if (failed(verifyDimsMatch(*this, getDinit(), "dinit", d, getTrajectory(),
                               "trajectory", d + 1)))
      return failure();
  return success();
}

LogicalResult ScanBackwardXsOp::verify() {
  SmallVector<Type> steps;
  if (failed(verifyScanGradient(*this, steps)))
    return failure();
  int64_t idx = getXsIdx(), n = getXs().size();
  if (idx < 0 || idx >= n)
    return emitOpError() << "expects 'xs_idx' to be in [0, " << n
                         << ") (the number of xs), got " << idx;
  return verifyResultLike(*this, getDxs(), "dxs", getXs()[idx],
                          "xs #" + std::to_string(idx));
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.cpp.inc"

void RlxDialect::registerScanOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxScanOps.cpp.inc"
      >();
}
