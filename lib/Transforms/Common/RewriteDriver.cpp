//===- RewriteDriver.cpp - shared driver of the rlx rewrite passes --------===//
#include "Common/RewriteDriver.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::rlx;

/// The selected ops (see runRewritePass).
static FailureOr<OpPredicate> buildOpFilter(Operation *root,
                                            ArrayRef<std::string> names,
                                            TypeID kind, StringRef kindName) {
  auto ofKind = [kind](Operation *op) { return op->getName().hasTrait(kind); };
  if (names.empty())
    return OpPredicate(ofKind);
  MLIRContext *ctx = root->getContext();
  auto selected = std::make_shared<llvm::StringSet<>>();
  for (StringRef name : names) {
    std::string full =
        name.starts_with("rlx.") ? name.str() : "rlx." + name.str();
    std::optional<RegisteredOperationName> info =
        RegisteredOperationName::lookup(full, ctx);
    if (!info || !info->hasTrait(kind))
      return root->emitError()
             << "ops= names '" << name << "', which is not an rlx " << kindName
             << " op";
    selected->insert(full);
  }
  return OpPredicate([selected, ofKind](Operation *op) {
    return ofKind(op) && selected->contains(op->getName().getStringRef());
  });
}

namespace {
/// Remembers the last match-failure reason reported at each location.
struct FailureReasons : public RewriterBase::Listener {
  void
  notifyMatchFailure(Location loc,
                     function_ref<void(Diagnostic &)> reasonCallback) override {
    Diagnostic diag(loc, DiagnosticSeverity::Remark);
    reasonCallback(diag);
    reasons[loc.getAsOpaquePointer()] = diag.str();
  }
  DenseMap<const void *, std::string> reasons;
};
} // namespace

/// Applies `patterns` and reports the targets left (see runRewritePass).
static LogicalResult applyAndReport(Operation *root,
                                    const FrozenRewritePatternSet &patterns,
                                    const OpPredicate &isTarget,
                                    bool allowPartial, StringRef action) {
  FailureReasons reasons;
  GreedyRewriteConfig config;
  config.setListener(&reasons);
  // A non-converged rewrite is still reported op by op below.
  (void)applyPatternsGreedily(root, patterns, config);

  bool failedAny = false;
  root->walk([&](Operation *op) {
    if (!isTarget(op))
      return;
    auto it = reasons.reasons.find(op->getLoc().getAsOpaquePointer());
    std::string why = it != reasons.reasons.end()
                          ? it->second
                          : std::string("no pattern applies");
    if (allowPartial) {
      op->emitWarning() << "could not " << action << " '" << op->getName()
                        << "': " << why;
      return;
    }
    op->emitError() << "could not " << action << " '" << op->getName()
                    << "': " << why;
    failedAny = true;
  });
  return failure(failedAny);
}

LogicalResult mlir::rlx::runRewritePass(
    Operation *root, const RewritePassSpec &spec, ArrayRef<std::string> names,
    bool allowPartial,
    function_ref<void(RewritePatternSet &, const OpPredicate &)> populate) {
  FailureOr<OpPredicate> filter =
      buildOpFilter(root, names, spec.kind, spec.kindName);
  if (failed(filter))
    return failure();
  RewritePatternSet patterns(root->getContext());
  populate(patterns, *filter);
  return applyAndReport(root, std::move(patterns), *filter, allowPartial,
                        spec.action);
}
