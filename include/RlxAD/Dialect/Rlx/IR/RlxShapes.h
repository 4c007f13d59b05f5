//===- RlxShapes.h - shape arithmetic shared by verifiers and passes -*- C++ -*-===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXSHAPES_H
#define RLXAD_DIALECT_RLX_IR_RLXSHAPES_H

#include "mlir/IR/BuiltinTypes.h"
#include <cstdint>
#include <optional>

namespace mlir::rlx {

/// Output length of a convolution/pooling window sweep:
/// floor((in + 2*pad - dil*(k-1) - 1) / stride) + 1, or std::nullopt when no
/// window fits (the caller reports it). Dynamic input gives ShapedType::kDynamic.
inline std::optional<int64_t> slidingOutputSize(int64_t in, int64_t kernel,
                                                int64_t stride, int64_t pad,
                                                int64_t dilation) {
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1;
  if (span < 0 || stride <= 0)
    return std::nullopt;
  return span / stride + 1;
}

/// Maps a possibly negative axis into [0, rank); std::nullopt if out of range.
inline std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

} // namespace mlir::rlx

#endif // RLXAD_DIALECT_RLX_IR_RLXSHAPES_H
