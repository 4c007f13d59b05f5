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
// the replacement values. The templates below turn it into a rewrite pattern
// (for the passes and populate*Patterns) and into the op's
// linalg::AggregatedOpInterface::decomposeOperation, so every path runs the
// same code. Forward lowerings use the same shape with LoweringOptions.
//
// Guard policy: a rewrite trusts the verifier for everything the verifier
// checks (ranks, attribute values, axes, static geometry, static
// divisibility) and never re-checks it. It checks only the limits of the
// rewrite itself: the element types (f32/f64, checked here for every op) and
// dims it needs static.
//
// Reduced precision: an op whose float operands/results are bf16 or f16 is
// rewritten here, once for every op, as "extend to f32, the f32 rewrite,
// round once to the result type" (runInF32). The rewrite functions therefore
// only ever see f32/f64, and every statistic, reduction and accumulation of a
// bf16/f16 op (norm and softmax statistics, conv/matmul sums, cumsum) is f32.
// Relations between dynamic dims are checked at run time (rlx-check-shapes),
// not by pattern code.
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

/// Fails (with a reason naming the type) unless every operand and result of
/// `op` with a float element type is f32 or f64: the one limit every rewrite
/// shares, checked by the glue below before any rewrite function runs.
LogicalResult checkF32OrF64(RewriterBase &rewriter, Operation *op);

/// Whether `type` (or its element type) is bf16 or f16: the reduced-precision
/// floats the rewrites compute in f32.
bool isLowPrecisionFloat(Type type);

/// Whether an operand or result of `op` is a bf16/f16 tensor or scalar.
bool hasLowPrecisionFloats(Operation *op);

/// Rewrites `op` (with bf16/f16 operands or results) in f32: clones it with
/// those operands extended to f32 (arith.extf in an elementwise generic), the
/// matching results, region arguments and region terminator operands
/// retyped to f32 (region arguments are rounded back to the original type at
/// the start of their block, so the region's own ops are unchanged), runs
/// `rewrite` on the clone and rounds its values once (arith.truncf) to `op`'s
/// result types. The clone is erased either way; on failure the extensions
/// too, and the reason `rewrite` gave stands (it names the clone's location,
/// which is `op`'s).
FailureOr<SmallVector<Value>>
runInF32(RewriterBase &rewriter, Operation *op,
         function_ref<FailureOr<SmallVector<Value>>(Operation *)> rewrite);

/// Casts each value whose type differs from `op`'s result type to it
/// (tensor.cast between compatible shapes, e.g. a static shape computed for a
/// `?` result).
SmallVector<Value> castToResultTypes(OpBuilder &b, Operation *op,
                                     ValueRange values);

template <typename OpTy, typename OptionsTy>
using RewriteFn = FailureOr<SmallVector<Value>> (*)(RewriterBase &, OpTy,
                                                    const OptionsTy &);

/// Runs Fn on `op` after the element-type check; the values cast to the
/// result types. bf16/f16 ops run Fn on an f32 copy (runInF32).
template <typename OpTy, typename OptionsTy, RewriteFn<OpTy, OptionsTy> Fn>
FailureOr<SmallVector<Value>> runRewrite(RewriterBase &rewriter, OpTy op,
                                         const OptionsTy &options) {
  if (hasLowPrecisionFloats(op))
    return runInF32(rewriter, op, [&](Operation *f32Op) {
      return runRewrite<OpTy, OptionsTy, Fn>(rewriter, cast<OpTy>(f32Op),
                                             options);
    });
  if (failed(checkF32OrF64(rewriter, op)))
    return failure();
  FailureOr<SmallVector<Value>> values = Fn(rewriter, op, options);
  if (failed(values))
    return failure();
  return castToResultTypes(rewriter, op, *values);
}

/// Replaces OpTy with the values Fn builds; honours options.filter.
template <typename OpTy, typename OptionsTy, RewriteFn<OpTy, OptionsTy> Fn>
struct FunctionPattern : OpRewritePattern<OpTy> {
  FunctionPattern(MLIRContext *ctx, const OptionsTy &options)
      : OpRewritePattern<OpTy>(ctx), options(options) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (options.filter && !options.filter(op))
      return rewriter.notifyMatchFailure(op, "not selected by the ops filter");
    FailureOr<SmallVector<Value>> values =
        runRewrite<OpTy, OptionsTy, Fn>(rewriter, op, options);
    if (failed(values))
      return failure();
    rewriter.replaceOp(op, *values);
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
    return runRewrite<OpTy, DecompositionOptions, Fn>(rewriter, cast<OpTy>(op),
                                                      DecompositionOptions());
  }
};

/// One op and its rewrite function.
template <typename OpTy, typename OptionsTy, RewriteFn<OpTy, OptionsTy> Fn>
struct Rewrite {
  static void addPattern(RewritePatternSet &patterns,
                         const OptionsTy &options) {
    patterns.add<FunctionPattern<OpTy, OptionsTy, Fn>>(patterns.getContext(),
                                                       options);
  }
};

/// One forward op and its lowering function.
template <typename OpTy, RewriteFn<OpTy, LoweringOptions> Fn>
using Lowering = Rewrite<OpTy, LoweringOptions, Fn>;

/// One backward op and its decomposition function, which also backs its
/// linalg::AggregatedOpInterface model.
template <typename OpTy, RewriteFn<OpTy, DecompositionOptions> Fn>
struct Decomposition : Rewrite<OpTy, DecompositionOptions, Fn> {
  static void attachModel(MLIRContext *ctx) {
    OpTy::template attachInterface<DecomposeModel<OpTy, Fn>>(*ctx);
  }
};

/// The decompositions of one family: patterns and interface models.
template <typename... Ds> struct DecompositionList {
  static void addPatterns(RewritePatternSet &patterns,
                          const DecompositionOptions &options) {
    (Ds::addPattern(patterns, options), ...);
  }
  static void attachModels(MLIRContext *ctx) { (Ds::attachModel(ctx), ...); }
};

/// The lowerings of one family.
template <typename... Ls>
void addLoweringPatterns(RewritePatternSet &patterns,
                         const LoweringOptions &options) {
  (Ls::addPattern(patterns, options), ...);
}

/// attach<Family>DecompositionModels, one per family (defined with its
/// decompositions), called by registerDecompositionInterfaceModels.
#define RLX_FAMILY(Family)                                                     \
  void attach##Family##DecompositionModels(MLIRContext *ctx);
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_COMMON_PATTERNGLUE_H
