//===- CheckContracts.cpp - the rlx-check-contracts pass ------------------===//
//
// Before each rlx op, a cf.assert per relation of its shape contract (the
// relations its verifier could not decide statically; ShapeContract.h). The
// asserts run before the op's lowering touches any memory; the rlx runtime
// turns a failed one into an error of the call.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "RlxAD/Dialect/Rlx/IR/ShapeContract.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCHECKCONTRACTS
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

/// Whether the size of `ref` is known before `op` runs: a static dim, or a
/// dim of an operand. A dynamic result dim is computed by the lowering, so
/// a relation on it holds by construction.
static bool isKnownBefore(Operation *op, DimRef ref) {
  int64_t size = cast<ShapedType>(ref.value.getType()).getDimSize(ref.dim);
  return !ShapedType::isDynamic(size) ||
         (ref.value.getDefiningOp() != op &&
          llvm::is_contained(op->getOperands(), ref.value));
}

/// The size of `ref` (isKnownBefore) as an index value before `op`.
static Value dimBefore(OpBuilder &b, Location loc, DimRef ref) {
  int64_t size = cast<ShapedType>(ref.value.getType()).getDimSize(ref.dim);
  if (!ShapedType::isDynamic(size))
    return arith::ConstantIndexOp::create(b, loc, size);
  return tensor::DimOp::create(b, loc, ref.value, ref.dim);
}

static void checkRelation(OpBuilder &b, Operation *op,
                          const ShapeRelation &relation) {
  Location loc = op->getLoc();
  if (!llvm::all_of(relation.dims,
                    [&](DimRef ref) { return isKnownBefore(op, ref); }))
    return;
  SmallVector<Value> sizes;
  for (DimRef ref : relation.dims)
    sizes.push_back(dimBefore(b, loc, ref));
  Value lhs = affine::expandAffineExpr(b, loc, relation.lhs, {}, sizes);
  Value rhs = affine::expandAffineExpr(b, loc, relation.rhs, {}, sizes);
  if (relation.rhsMin)
    rhs = arith::MinSIOp::create(
        b, loc, rhs,
        affine::expandAffineExpr(b, loc, relation.rhsMin, {}, sizes));
  Value holds;
  switch (relation.kind) {
  case ShapeRelation::Kind::Equal:
    holds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
    break;
  case ShapeRelation::Kind::AtMost:
    holds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, lhs, rhs);
    break;
  case ShapeRelation::Kind::EqualOrOne: {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    holds = arith::OrIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, one));
    break;
  }
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "rlx: run-time shape check failed in '" << op->getName() << "' at "
     << loc << ": " << relation.description;
  cf::AssertOp::create(b, loc, holds, message);
}

namespace {
struct RlxCheckContractsPass
    : public rlx::impl::RlxCheckContractsBase<RlxCheckContractsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<RlxDialect>(op->getDialect()))
        ops.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (Operation *op : ops) {
      builder.setInsertionPoint(op);
      for (const ShapeRelation &relation : getShapeContract(op))
        checkRelation(builder, op, relation);
    }
  }
};
} // namespace
