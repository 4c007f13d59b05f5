//===- ShapeContract.cpp - run-time shape contracts from the verifiers ----===//
#include "RlxAD/Dialect/Rlx/IR/ShapeContract.h"

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::rlx;

/// The relations of the getShapeContract() call running on this thread.
static thread_local SmallVector<ShapeRelation> *collecting = nullptr;

bool mlir::rlx::isCollectingShapeContract() { return collecting; }

void mlir::rlx::recordShapeRelation(ShapeRelation relation) {
  if (!collecting)
    return;
  // A dim related to itself holds; verifiers that check every pair of
  // operands state most relations twice.
  if (relation.kind == ShapeRelation::Kind::Equal &&
      relation.dims.size() == 2 &&
      relation.dims[0].value == relation.dims[1].value &&
      relation.dims[0].dim == relation.dims[1].dim)
    return;
  for (const ShapeRelation &r : *collecting)
    if (r.kind == relation.kind && r.lhs == relation.lhs &&
        r.rhs == relation.rhs && r.rhsMin == relation.rhsMin &&
        r.dims.size() == relation.dims.size() &&
        llvm::all_of(llvm::zip(r.dims, relation.dims), [](auto pair) {
          auto [a, b] = pair;
          return a.value == b.value && a.dim == b.dim;
        }))
      return;
  collecting->push_back(std::move(relation));
}

SmallVector<ShapeRelation> mlir::rlx::getShapeContract(Operation *op) {
  SmallVector<ShapeRelation> relations;
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (!info || !isa<RlxDialect>(op->getDialect()))
    return relations;
  // The verifier runs again and records what it cannot decide. The op
  // verified before, so it reports nothing; should it, the report is not the
  // caller's concern here.
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  SmallVector<ShapeRelation> *outer = collecting;
  collecting = &relations;
  (void)info->verifyInvariants(op);
  collecting = outer;
  return relations;
}
