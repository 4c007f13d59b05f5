//===- RewriteDriver.h - shared driver of the rlx rewrite passes -*- C++ -*-===//
#ifndef RLX_LIB_TRANSFORMS_COMMON_REWRITEDRIVER_H
#define RLX_LIB_TRANSFORMS_COMMON_REWRITEDRIVER_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include <functional>
#include <string>

namespace mlir::rlx {

using OpPredicate = std::function<bool(Operation *)>;

/// The ops a pass should rewrite: those with the trait `kind`
/// (TypeID::get<rlx::OpTrait::Backward>() or ...::Forward>()), restricted to
/// `names` (as "rlx.foo" or "foo") when non-empty. Fails with an error at
/// `root` for a name that is not an rlx op with that trait (`kindName` says
/// which, e.g. "backward").
FailureOr<OpPredicate> buildOpFilter(Operation *root,
                                     ArrayRef<std::string> names, TypeID kind,
                                     StringRef kindName);

/// Applies `patterns` greedily to `root`, then reports every op still
/// satisfying `isTarget` with the reason its pattern gave: an error (and
/// failure) or, with `allowPartial`, a warning.
LogicalResult applyAndReport(Operation *root,
                             const FrozenRewritePatternSet &patterns,
                             const OpPredicate &isTarget, bool allowPartial,
                             StringRef action);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_COMMON_REWRITEDRIVER_H
