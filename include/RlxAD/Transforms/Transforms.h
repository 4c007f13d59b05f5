//===- Transforms.h - public rewrite-pattern entry points -------*- C++ -*-===//
//
// What an embedding compiler calls to reuse rlx's rewrites in its own passes:
// one populate function per op family and direction, plus the all-in-one
// variants the rlx passes use.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_TRANSFORMS_TRANSFORMS_H
#define RLXAD_TRANSFORMS_TRANSFORMS_H

#include "RlxAD/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include <cstdint>
#include <functional>

namespace mlir {
class DialectRegistry;
namespace rlx {

/// Options of the backward-op decompositions: the rewrite options of
/// rlx-decompose-backward (PassOptions.def; their types, defaults and
/// documentation are in Passes.td and docs/Dialect/Passes.md), plus a filter.
/// The AggregatedOpInterface path uses the defaults.
struct DecompositionOptions {
#define RLX_DECOMPOSE_BACKWARD_OPTION(Field, Arg)                              \
  decltype(RlxDecomposeBackwardOptions::Field) Field =                         \
      RlxDecomposeBackwardOptions().Field;
#include "RlxAD/Transforms/PassOptions.def"

  /// If set, only ops for which it returns true are rewritten.
  std::function<bool(Operation *)> filter;
};

/// Options of the forward-op lowerings: the rewrite options of
/// rlx-lower-to-linalg (likewise), plus a filter.
struct LoweringOptions {
#define RLX_LOWER_TO_LINALG_OPTION(Field, Arg)                                 \
  decltype(RlxLowerToLinalgOptions::Field) Field =                             \
      RlxLowerToLinalgOptions().Field;
#include "RlxAD/Transforms/PassOptions.def"

  /// If set, only ops for which it returns true are rewritten.
  std::function<bool(Operation *)> filter;
};

//===----------------------------------------------------------------------===//
// Per family (RLX_OP_FAMILIES), defined in lib/Transforms/<Family>/:
//
//   populate<Family>DecompositionPatterns: the decompositions of the family's
//     backward ops (Decompose<Family>Backward.cpp), e.g.
//     populateNormDecompositionPatterns for layer/rms/group norm gradients;
//   populate<Family>LoweringPatterns: the lowerings of its forward ops
//     (Lower<Family>.cpp).
//===----------------------------------------------------------------------===//

#define RLX_FAMILY(Family)                                                     \
  void populate##Family##DecompositionPatterns(                                \
      RewritePatternSet &patterns, const DecompositionOptions &options = {});  \
  void populate##Family##LoweringPatterns(                                     \
      RewritePatternSet &patterns, const LoweringOptions &options = {});
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"

/// Every family's decompositions (what rlx-decompose-backward applies).
void populateDecomposeBackwardPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});

/// Every family's lowerings (what rlx-lower-to-linalg applies).
void populateLowerToLinalgPatterns(RewritePatternSet &patterns,
                                   const LoweringOptions &options = {});

/// Attaches linalg::AggregatedOpInterface to every backward op, so that
/// `decomposeOperation` (and transform.structured.decompose_interface)
/// produce the same IR as rlx-decompose-backward with default options.
void registerDecompositionInterfaceModels(DialectRegistry &registry);

} // namespace rlx
} // namespace mlir

#endif // RLXAD_TRANSFORMS_TRANSFORMS_H
