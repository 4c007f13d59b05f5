//===- RewriteDriver.h - driver of the rlx rewrite passes -------*- C++ -*-===//
#ifndef RLX_LIB_TRANSFORMS_COMMON_REWRITEDRIVER_H
#define RLX_LIB_TRANSFORMS_COMMON_REWRITEDRIVER_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include <functional>
#include <string>

namespace mlir::rlx {

using OpPredicate = std::function<bool(Operation *)>;

/// What an rlx rewrite pass does with its options.
struct RewritePassSpec {
  /// The ops it rewrites: those with this trait
  /// (TypeID::get<rlx::OpTrait::Backward>() or ...::Forward>()) ...
  TypeID kind;
  /// ... named in diagnostics as "an rlx <kindName> op" ...
  StringRef kindName;
  /// ... and in "could not <action> '<op>'".
  StringRef action;
};

/// The body of rlx-decompose-backward and rlx-lower-to-linalg: selects the
/// ops of `spec.kind`, restricted to `names` (as "rlx.foo" or "foo") when
/// non-empty, applies greedily the patterns `populate` adds for that
/// selection, then reports every selected op left with the reason its
/// pattern gave: an error (and failure) or, with `allowPartial`, a warning.
/// A name that is not an rlx op of that kind is an error at `root`.
LogicalResult runRewritePass(
    Operation *root, const RewritePassSpec &spec, ArrayRef<std::string> names,
    bool allowPartial,
    function_ref<void(RewritePatternSet &, const OpPredicate &)> populate);

/// runRewritePass with the patterns of `populate` (e.g.
/// populateDecomposeBackwardPatterns) under `options`, whose filter it sets.
template <typename OptionsT>
LogicalResult
runRewritePass(Operation *root, const RewritePassSpec &spec,
               ArrayRef<std::string> names, bool allowPartial, OptionsT options,
               void (*populate)(RewritePatternSet &, const OptionsT &)) {
  return runRewritePass(
      root, spec, names, allowPartial,
      [&](RewritePatternSet &patterns, const OpPredicate &filter) {
        options.filter = filter;
        populate(patterns, options);
      });
}

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_COMMON_REWRITEDRIVER_H
