//===- VectorizeInterleaved.h - generics with interleaved outputs -*- C++
//-*-===//
//
// Part of rlx-vectorize-rows: the generics whose innermost loop is a few
// interleaved phases of the output (max_pool2d_backward's dx by phases).
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_TRANSFORMS_OPTIMIZE_VECTORIZEINTERLEAVED_H
#define RLXAD_TRANSFORMS_OPTIMIZE_VECTORIZEINTERLEAVED_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Vectorizes, under `root`, each linalg.generic on tensors whose innermost
/// loop (a few phases) only the output walks, last, and whose next loop
/// every input walks last or not at all: along that next loop, in vectors
/// of `vectorBits`, one clone of the body per phase, the phases interleaved
/// into one contiguous vector store. Returns how many it vectorized.
int64_t vectorizeInterleavedGenerics(RewriterBase &rewriter, Operation *root,
                                     int64_t vectorBits);

} // namespace mlir::rlx

#endif // RLXAD_TRANSFORMS_OPTIMIZE_VECTORIZEINTERLEAVED_H
