//===- Transforms.h - public rewrite-pattern entry points ---------*- C++ -*-===//
//
// What an embedding compiler calls to reuse rlx's rewrites in its own passes:
// one populate function per op family and direction, plus the all-in-one
// variants the rlx passes use.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_TRANSFORMS_TRANSFORMS_H
#define RLXAD_TRANSFORMS_TRANSFORMS_H

#include "mlir/IR/PatternMatch.h"
#include <cstdint>
#include <functional>

namespace mlir {
class DialectRegistry;
namespace rlx {

/// Knobs of the backward-op decompositions (the rlx-decompose-backward pass
/// options). The AggregatedOpInterface path uses the defaults.
struct DecompositionOptions {
  /// cumsum_backward: longest static axis decomposed as a triangular
  /// ones-matrix matmul; longer or dynamic axes use an O(L) reverse scan.
  int64_t cumsumMatrixMaxLength = 256;
  /// scan_backward(_xs): longest length that is unrolled; longer or dynamic
  /// lengths use an scf.for loop.
  int64_t scanUnrollMaxLength = 256;
  /// conv2d_backward_weight: cap on the im2col buffer in elements (0 = none);
  /// above it the N*Ho*Wo dimension is tiled with an scf.for accumulation.
  int64_t im2colMaxElements = 0;
  /// If set, only ops for which it returns true are rewritten.
  std::function<bool(Operation *)> filter;
};

/// Knobs of the forward-op lowerings (rlx-lower-to-linalg).
struct LoweringOptions {
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
  void populate##Family##LoweringPatterns(RewritePatternSet &patterns,         \
                                          const LoweringOptions &options = {});
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
