//===- Autodiff.h - reverse-mode autodiff of rlx and linalg -----*- C++ -*-===//
//
// rlx-grad as a library. buildGradFunction is what the pass runs;
// buildReverseSweep is the core, reusable for any block (the body of a
// function, of a scan step). Rules come from rlx::GradOpInterface
// (RlxAD/Autodiff/GradOpInterface.h); registerGradInterfaceModels attaches
// those of the rlx forward ops and of the upstream ops rlx supports
// (registerRlxDialect calls it).
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_TRANSFORMS_AUTODIFF_H
#define RLXAD_TRANSFORMS_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
class DialectRegistry;
namespace rlx {

/// Creates `@<name>_grad` next to `func` (a single-block func.func) and
/// returns it. Its arguments are func's arguments, then one cotangent per
/// float result that is not a scalar loss (0-d or one static element: its
/// cotangent is 1); its results are func's results, then the gradient of the
/// sum of the results weighted by their cotangents with respect to each
/// argument in `wrt` (indices into func's arguments, float tensors or float
/// scalars). Forward values are reused, not recomputed. On failure (a bad
/// index, an op without a rule, a rule that cannot handle its op) an error
/// names the cause and nothing is created.
FailureOr<func::FuncOp> buildGradFunction(func::FuncOp func,
                                          ArrayRef<unsigned> wrt);

/// The reverse sweep over `ops` (in forward order; they dominate b's
/// insertion point): given the cotangents `outputCotangents` of `outputs`
/// (null = zero), builds at b's insertion point the cotangents of `wrt` (null
/// where none reaches, i.e. zero). Only ops on a path from `wrt` to `outputs`
/// need a GradOpInterface rule; the others are skipped.
FailureOr<SmallVector<Value>>
buildReverseSweep(OpBuilder &b, ArrayRef<Operation *> ops, ValueRange wrt,
                  ValueRange outputs, ArrayRef<Value> outputCotangents);

/// Attaches GradOpInterface to the rlx forward ops and to the upstream ops
/// rlx-grad supports (linalg structured ops, tensor reshapes/slices/pad/
/// concat, arith and math on tensors and scalars).
void registerGradInterfaceModels(DialectRegistry &registry);

} // namespace rlx
} // namespace mlir

#endif // RLXAD_TRANSFORMS_AUTODIFF_H
