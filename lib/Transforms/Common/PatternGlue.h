//===- PatternGlue.h - one rewrite function, two entry points -*- C++ -*-===//
//
// Each op family writes one function per op:
//
//   static FailureOr<SmallVector<Value>>
//   decomposeFooBackward(RewriterBase &rewriter, FooBackwardOp op,
//                        const DecompositionOptions &options);
//
// that checks its preconditions *before* creating IR (returning
// rewriter.notifyMatchFailure(op, "<reason a user understands>")) and returns
// the replacement values.
//
// Guard policy: a rewrite trusts the verifier for everything the verifier
// checks (ranks, attribute values, axes, static geometry, static
// divisibility) and never re-checks it; it checks only the limits of the
// rewrite itself (element types other than f32/f64, dims it needs static).
// Relations between dynamic dims are checked at run time (rlx-check-shapes),
// not by pattern code. The templates below turn it into a rewrite pattern
// (for the passes and populate*Patterns) and into the op's
// linalg::AggregatedOpInterface::decomposeOperation, so every path runs the
// same code. Forward lowerings use the same shape with LoweringOptions.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_COMMON_PATTERNGLUE_H
#define RLX_LIB_TRANSFORMS_COMMON_PATTERNGLUE_H

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "RlxAD/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Casts each value whose type differs from `op`'s result type to it
/// (tensor.cast between compatible shapes, e.g. a static shape computed for a
/// `?` result).
SmallVector<Value> castToResultTypes(OpBuilder &b, Operation *op,
                                     ValueRange values);

template <typename OpTy, typename OptionsTy>
using RewriteFn = FailureOr<SmallVector<Value>> (*)(RewriterBase &, OpTy,
                                                    const OptionsTy &);

/// Replaces OpTy with the values Fn builds; honours options.filter.
template <typename OpTy, typename OptionsTy, RewriteFn<OpTy, OptionsTy> Fn>
struct FunctionPattern : OpRewritePattern<OpTy> {
  FunctionPattern(MLIRContext *ctx, const OptionsTy &options)
      : OpRewritePattern<OpTy>(ctx), options(options) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (options.filter && !options.filter(op))
      return rewriter.notifyMatchFailure(op, "not selected by the ops filter");
    FailureOr<SmallVector<Value>> values = Fn(rewriter, op, options);
    if (failed(values))
      return failure();
    rewriter.replaceOp(op, castToResultTypes(rewriter, op, *values));
    return success();
  }

  OptionsTy options;
};

/// linalg::AggregatedOpInterface backed by the same function (defaults).
template <typename OpTy, RewriteFn<OpTy, DecompositionOptions> Fn>
struct DecomposeModel
    : linalg::AggregatedOpInterface::ExternalModel<DecomposeModel<OpTy, Fn>,
                                                   OpTy> {
  FailureOr<SmallVector<Value>> decomposeOperation(Operation *op,
                                                   OpBuilder &b) const {
    IRRewriter rewriter(b);
    FailureOr<SmallVector<Value>> values =
        Fn(rewriter, cast<OpTy>(op), DecompositionOptions());
    if (failed(values))
      return failure();
    return castToResultTypes(b, op, *values);
  }
};

/// One backward op and its decomposition function.
template <typename OpTy, RewriteFn<OpTy, DecompositionOptions> Fn>
struct Decomposition {
  static void addPattern(RewritePatternSet &patterns,
                         const DecompositionOptions &options) {
    patterns.add<FunctionPattern<OpTy, DecompositionOptions, Fn>>(
        patterns.getContext(), options);
  }
  static void attachModel(MLIRContext *ctx) {
    OpTy::template attachInterface<DecomposeModel<OpTy, Fn>>(*ctx);
  }
};

/// The decompositions of one family: patterns and interface models.
template <typename... Ds>
struct DecompositionList {
  static void addPatterns(RewritePatternSet &patterns,
                          const DecompositionOptions &options) {
    (Ds::addPattern(patterns, options), ...);
  }
  static void attachModels(MLIRContext *ctx) { (Ds::attachModel(ctx), ...); }
};

/// One forward op and its lowering function.
template <typename OpTy, RewriteFn<OpTy, LoweringOptions> Fn>
struct Lowering {
  static void addPattern(RewritePatternSet &patterns,
                         const LoweringOptions &options) {
    patterns.add<FunctionPattern<OpTy, LoweringOptions, Fn>>(
        patterns.getContext(), options);
  }
};

template <typename... Ls>
void addLoweringPatterns(RewritePatternSet &patterns,
                         const LoweringOptions &options) {
  (Ls::addPattern(patterns, options), ...);
}

/// attach<Family>DecompositionModels, one per family (defined with its
/// decompositions), called by registerDecompositionInterfaceModels.
#define RLX_FAMILY(Family) void attach##Family##DecompositionModels(MLIRContext *ctx);
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_COMMON_PATTERNGLUE_H
