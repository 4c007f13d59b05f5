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
// Backward-op decompositions (rlx-decompose-backward), one per family.
//===----------------------------------------------------------------------===//

/// relu_backward, activation_backward: closed-form derivatives.
void populateActivationDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// layer/rms/group norm backward (input, gamma, beta).
void populateNormDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// conv2d_backward_input (transposed convolution) and
/// conv2d_backward_weight (im2col + matmul).
void populateConvDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// max_pool2d_backward (argmax per window, then a gather-sum per input).
void populatePoolDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// cumsum_backward (triangular matmul or reverse scan).
void populateCumsumDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// gather_backward (row accumulation loop).
void populateGatherDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// softmax_cross_entropy_backward.
void populateSoftmaxDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// fake_quantize_backward (every STE, per tensor and per channel).
void populateQuantizeDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// rope_backward.
void populateRopeDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// attention_backward (closed form, every mask kind).
void populateAttentionDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});
/// scan_backward, scan_backward_xs (unrolled or scf.for).
void populateScanDecompositionPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});

/// Every family above.
void populateDecomposeBackwardPatterns(
    RewritePatternSet &patterns, const DecompositionOptions &options = {});

//===----------------------------------------------------------------------===//
// Forward-op lowerings (rlx-lower-to-linalg), one per family.
//===----------------------------------------------------------------------===//

void populateActivationLoweringPatterns(RewritePatternSet &patterns,
                                        const LoweringOptions &options = {});
void populateNormLoweringPatterns(RewritePatternSet &patterns,
                                  const LoweringOptions &options = {});
void populateConvLoweringPatterns(RewritePatternSet &patterns,
                                  const LoweringOptions &options = {});
void populatePoolLoweringPatterns(RewritePatternSet &patterns,
                                  const LoweringOptions &options = {});
void populateCumsumLoweringPatterns(RewritePatternSet &patterns,
                                    const LoweringOptions &options = {});
void populateGatherLoweringPatterns(RewritePatternSet &patterns,
                                    const LoweringOptions &options = {});
void populateSoftmaxLoweringPatterns(RewritePatternSet &patterns,
                                     const LoweringOptions &options = {});
void populateQuantizeLoweringPatterns(RewritePatternSet &patterns,
                                      const LoweringOptions &options = {});
void populateRopeLoweringPatterns(RewritePatternSet &patterns,
                                  const LoweringOptions &options = {});
void populateAttentionLoweringPatterns(RewritePatternSet &patterns,
                                       const LoweringOptions &options = {});
void populateScanLoweringPatterns(RewritePatternSet &patterns,
                                  const LoweringOptions &options = {});

/// Every family above.
void populateLowerToLinalgPatterns(RewritePatternSet &patterns,
                                   const LoweringOptions &options = {});

/// Attaches linalg::AggregatedOpInterface to every backward op, so that
/// `decomposeOperation` (and transform.structured.decompose_interface)
/// produce the same IR as rlx-decompose-backward with default options.
void registerDecompositionInterfaceModels(DialectRegistry &registry);

} // namespace rlx
} // namespace mlir

#endif // RLXAD_TRANSFORMS_TRANSFORMS_H
