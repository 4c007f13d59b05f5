//===- BuildUtils.h - IR-building helpers shared by the rewrites -*- C++ -*-===//
//
// The one place for index/shape/constant helpers; add here rather than
// copying a helper into a family file.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_BUILDUTILS_H
#define RLX_LIB_TRANSFORMS_BUILDUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Body of a linalg.generic: block arguments in, yielded values out.
using GenericBody =
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

/// Fails (with a reason naming the type) unless every operand and result of
/// `op` with a float element type is f32 or f64.
LogicalResult checkF32OrF64(RewriterBase &rewriter, Operation *op);

/// A scalar float constant of type `type`.
Value floatConst(OpBuilder &b, Location loc, Type type, double value);

/// An index constant.
Value indexConst(OpBuilder &b, Location loc, int64_t value);

/// The sizes of `tensor`, static ones as attributes and dynamic ones as
/// tensor.dim.
SmallVector<OpFoldResult> mixedSizes(OpBuilder &b, Location loc, Value tensor);

/// tensor.empty with the shape of `like` (dynamic dims read from it) and
/// element type `elementType` (default: like's).
Value emptyLike(OpBuilder &b, Location loc, Value like,
                Type elementType = nullptr);

/// tensor.empty of `type` whose dynamic dims are taken, in order, from
/// `dynamicSizes` (index values).
Value emptyOf(OpBuilder &b, Location loc, RankedTensorType type,
              ValueRange dynamicSizes);

/// tensor.empty + linalg.fill with `value`.
Value filledLike(OpBuilder &b, Location loc, Value like, double value,
                 Type elementType = nullptr);
Value filled(OpBuilder &b, Location loc, Value empty, double value);

/// An all-parallel linalg.generic over the shape of `inputs[0]` with identity
/// maps: one result of `inputs[0]`'s shape and `resultElementType` (default:
/// the first input's element type).
Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                       function_ref<Value(OpBuilder &, Location, ValueRange)>
                           body,
                       Type resultElementType = nullptr);

/// Iterator types: `rank` parallel ones, except those listed as reductions.
SmallVector<utils::IteratorType>
iteratorTypes(int64_t rank, ArrayRef<int64_t> reductionDims = {});

/// The map (d0..d{rank-1}) -> (the dims not in `dropped`), e.g. the map of a
/// reduced operand.
AffineMap dropDimsMap(MLIRContext *ctx, int64_t rank,
                      ArrayRef<int64_t> dropped);

/// A linalg.generic over the iteration space of `source` that reduces the
/// dims `reducedDims`. Inputs: `source` (identity map), then `broadcast`
/// values of the reduced shape (the map dropping `reducedDims`). Outputs: one
/// tensor of the reduced shape and `source`'s element type per entry of
/// `inits`, filled with it. `body` receives (source element, broadcast
/// elements..., accumulators...) and returns the new accumulators.
SmallVector<Value> buildReduction(OpBuilder &b, Location loc, Value source,
                                  ArrayRef<int64_t> reducedDims,
                                  ValueRange broadcast, ArrayRef<double> inits,
                                  GenericBody body);

/// An all-parallel linalg.generic over the shape of `full[0]`: `full` inputs
/// use the identity map, `reduced` inputs (the outputs of a buildReduction
/// over `reducedDims`) the map dropping those dims. `body` receives (full
/// elements..., reduced elements...) and returns the one result element, of
/// `resultElementType` (default: full[0]'s element type).
Value buildBroadcastElementwise(
    OpBuilder &b, Location loc, ValueRange full, ValueRange reduced,
    ArrayRef<int64_t> reducedDims,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    Type resultElementType = nullptr);

/// Casts the signed integer `value` (e.g. an element of an i32/i64 index
/// tensor) to index and returns it together with the i1 `0 <= value < length`
/// (`length` an index value). Gathers select on the flag and read at
/// `select(flag, index, 0)` so that nothing is read out of bounds.
std::pair<Value, Value> castIndexInRange(OpBuilder &b, Location loc,
                                         Value value, Value length);

/// `acc + value` elementwise, written into `acc` (a linalg.generic with
/// ins(value) outs(acc), so bufferization updates acc in place). Both have the
/// same rank; `value` may differ from `acc` in which dims are static.
Value addInto(OpBuilder &b, Location loc, Value acc, Value value);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_BUILDUTILS_H
