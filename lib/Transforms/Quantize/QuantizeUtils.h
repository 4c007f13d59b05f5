//===- QuantizeUtils.h - fake-quantisation scale, shared --------*- C++ -*-===//
//
// The scale of rlx.fake_quantize, shared by its lowering and its gradient:
//
//   s = max|x| / qmax   per tensor, or per channel along `axis`
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_QUANTIZE_QUANTIZEUTILS_H
#define RLX_LIB_TRANSFORMS_QUANTIZE_QUANTIZEUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::rlx {

/// max|x| and the dims it was reduced over.
struct AbsMax {
  /// 0-d (per tensor) or 1-d [C] (per channel).
  Value value;
  /// Every dim of x (per tensor) or every dim except the axis.
  SmallVector<int64_t> reducedDims;
};

/// The channel axis of a (verified) fake_quantize(_backward) in [0, rank of
/// x), or std::nullopt for per-tensor quantisation.
std::optional<int64_t> quantizeAxis(Value x, std::optional<int64_t> axis);

/// qmax = 2^(bits-1) - 1: 127, 7 or 1 for 8, 4 or 2 bits.
int64_t quantizeQmax(int64_t bits);

/// One reduction generic: max|x| over the whole tensor, or over every dim
/// but `axis` (already normalised).
AbsMax buildAbsMax(OpBuilder &b, Location loc, Value x,
                   std::optional<int64_t> axis);

/// The scalar scale s = absMax / qmax (one element of buildAbsMax's result).
Value buildScale(OpBuilder &b, Location loc, Value absMax, int64_t bits);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_QUANTIZE_QUANTIZEUTILS_H
