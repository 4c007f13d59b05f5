//===- RlxShapes.h - shape arithmetic of verifiers and passes ---*- C++ -*-===//
#ifndef RLXAD_DIALECT_RLX_IR_RLXSHAPES_H
#define RLXAD_DIALECT_RLX_IR_RLXSHAPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace mlir::rlx {

/// The padded length in + 2*pad and the dilated window dil*(k-1) + 1, or
/// std::nullopt when either overflows int64_t (huge attributes); verifiers
/// reject those so that no rewrite computes with wrapped sizes.
inline std::optional<std::pair<int64_t, int64_t>>
slidingExtents(int64_t in, int64_t kernel, int64_t pad, int64_t dilation) {
  std::optional<int64_t> padded = llvm::checkedAdd(in, pad);
  if (padded)
    padded = llvm::checkedAdd(*padded, pad);
  std::optional<int64_t> window = llvm::checkedMul(dilation, kernel - 1);
  if (window)
    window = llvm::checkedAdd(*window, int64_t(1));
  if (!padded || !window)
    return std::nullopt;
  return std::make_pair(*padded, *window);
}

/// Output length of a convolution/pooling window sweep, PyTorch's rule
/// (pooling_output_shape; convolutions never use ceil mode): with
/// e = dil*(k-1) + 1 the dilated window,
///   out = floor((in + 2*pad - e + (ceil ? stride - 1 : 0)) / stride) + 1,
/// and in ceil mode the last window must start inside the input or the left
/// padding: out -= 1 when (out - 1) * stride >= in + pad. std::nullopt when
/// no window fits (out < 1) or the sizes overflow; dynamic input gives
/// ShapedType::kDynamic.
inline std::optional<int64_t> slidingOutputSize(int64_t in, int64_t kernel,
                                                int64_t stride, int64_t pad,
                                                int64_t dilation,
                                                bool ceilMode = false) {
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  std::optional<std::pair<int64_t, int64_t>> extents =
      slidingExtents(in, kernel, pad, dilation);
  if (!extents || stride <= 0)
    return std::nullopt;
  // Both extents are >= 0, so the difference cannot overflow.
  std::optional<int64_t> num = llvm::checkedAdd(
      extents->first - extents->second, ceilMode ? stride - 1 : 0);
  if (!num)
    return std::nullopt;
  int64_t out = llvm::divideFloorSigned(*num, stride) + 1;
  if (ceilMode && out >= 1) {
    std::optional<int64_t> lastStart = llvm::checkedMul(out - 1, stride);
    if (!lastStart || *lastStart >= in + pad)
      --out;
  }
  if (out < 1)
    return std::nullopt;
  return out;
}

/// Maps a possibly negative axis into [0, rank); std::nullopt if out of range.
inline std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

/// The axis of a verified op in [0, rank): rewrites trust the verifier, which
/// has checked -rank <= axis < rank.
inline int64_t verifiedAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

} // namespace mlir::rlx

#endif // RLXAD_DIALECT_RLX_IR_RLXSHAPES_H
