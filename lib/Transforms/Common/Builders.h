//===- Builders.h - the IR builders every rewrite shares --------*- C++ -*-===//
//
// The one place for linalg.generic, constant and shape helpers; add here
// rather than copying a helper into a family folder.
//
// Every generic is built by buildGeneric, which takes its operands with their
// indexing maps and derives the iterator types from them (a loop is a
// reduction exactly when no output map uses it), as IREE LinalgExt's
// `reduce<T>` does. The other generic builders are shorthands for the shapes
// the families keep using: elementwise, broadcasting, reductions and sums over
// some dims, row-wise parallel generics.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_COMMON_BUILDERS_H
#define RLX_LIB_TRANSFORMS_COMMON_BUILDERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

//===----------------------------------------------------------------------===//
// Scalars and tensors
//===----------------------------------------------------------------------===//

/// A scalar float constant of type `type`.
Value floatConst(OpBuilder &b, Location loc, Type type, double value);

/// tensor.empty with the shape of `like` (dynamic dims read from it) and
/// element type `elementType` (default: like's).
Value emptyLike(OpBuilder &b, Location loc, Value like,
                Type elementType = nullptr);

/// The sizes of `domain` without the dims in `dropped` (the shape of a
/// statistic reduced over them), static ones as attributes.
SmallVector<OpFoldResult> sizesWithout(OpBuilder &b, Location loc, Value domain,
                                       ArrayRef<int64_t> dropped);

/// linalg.fill of `empty` with `value`.
Value filled(OpBuilder &b, Location loc, Value empty, double value);

/// emptyLike + linalg.fill with `value`.
Value filledLike(OpBuilder &b, Location loc, Value like, double value,
                 Type elementType = nullptr);

/// Casts the signed integer `value` (e.g. an element of an i32/i64 index
/// tensor) to index and returns it together with the i1 `0 <= value < length`
/// (`length` an index value). Gathers select on the flag and read at
/// `select(flag, index, 0)` so that nothing is read out of bounds.
std::pair<Value, Value> castIndexInRange(OpBuilder &b, Location loc,
                                         Value value, Value length);

//===----------------------------------------------------------------------===//
// linalg.generic
//===----------------------------------------------------------------------===//

/// Body of a linalg.generic: block arguments (inputs, then outputs) in,
/// yielded values out.
using GenericBody =
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

/// Body of a one-result generic that does not read its output: the input
/// elements in, the result element out.
using ElementwiseBody = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// An operand of a linalg.generic: a tensor and the map from the loop space
/// to its indices.
struct GenericOperand {
  Value value;
  AffineMap map;
};

/// The one linalg.generic builder. Its loops are the dims of the maps; a loop
/// is a reduction when no output map uses it and parallel otherwise. The
/// outputs are the inits (their values reach `body` after the inputs' block
/// arguments); returns the results.
SmallVector<Value> buildGeneric(OpBuilder &b, Location loc,
                                ArrayRef<GenericOperand> inputs,
                                ArrayRef<GenericOperand> outputs,
                                GenericBody body);

/// An all-parallel generic over `sizes` (element type `elementType`) with
/// `numResults` results, reading `inputs` through their maps. `body` gets the
/// input elements only.
SmallVector<Value> buildParallel(OpBuilder &b, Location loc,
                                 ArrayRef<OpFoldResult> sizes, Type elementType,
                                 ArrayRef<GenericOperand> inputs,
                                 unsigned numResults, GenericBody body);

/// An all-parallel generic over the shape of `inputs[0]` with identity maps,
/// one result of `resultElementType` (default: inputs[0]'s element type).
Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                       ElementwiseBody body, Type resultElementType = nullptr);

/// An all-parallel generic over the shape of `full[0]`: `full` inputs read
/// with the identity, `reduced` inputs (statistics over `reducedDims`, e.g.
/// from buildReduction) with the identity without those dims.
Value buildBroadcastElementwise(OpBuilder &b, Location loc, ValueRange full,
                                ValueRange reduced,
                                ArrayRef<int64_t> reducedDims,
                                ElementwiseBody body,
                                Type resultElementType = nullptr);

/// A generic over the shape of `domain` that reduces the dims `reducedDims`:
/// `inputs` through their maps, one accumulator per entry of `inits`
/// (domain's shape without `reducedDims`, its element type, filled with the
/// init). `body` gets (input elements..., accumulators...) and returns the
/// new accumulators.
SmallVector<Value> buildReduction(OpBuilder &b, Location loc, Value domain,
                                  ArrayRef<int64_t> reducedDims,
                                  ArrayRef<GenericOperand> inputs,
                                  ArrayRef<double> inits, GenericBody body);

/// `numSums` sums over the `reducedDims` of `domain`'s loop space, in one
/// generic (a multi-output reduction over one shared zero tensor): `terms`
/// gets the input elements and returns the term of each sum.
SmallVector<Value> buildSums(OpBuilder &b, Location loc, Value domain,
                             ArrayRef<int64_t> reducedDims,
                             ArrayRef<GenericOperand> inputs, unsigned numSums,
                             GenericBody terms);

/// The sum of `tensor` over its `reducedDims`.
Value buildSum(OpBuilder &b, Location loc, Value tensor,
               ArrayRef<int64_t> reducedDims);

/// out = sum over the dims missing from `outMap` of lhs * rhs: one
/// linalg.contract (a matmul in any layout, as IREE LinalgExt's
/// computeMatmul) over the loop space of the maps, accumulating into `init`.
Value buildContraction(OpBuilder &b, Location loc, Value lhs, AffineMap lhsMap,
                       Value rhs, AffineMap rhsMap, Value init,
                       AffineMap outMap);

/// init + sum over the dims missing from `init.map` of lhs * rhs, as a
/// linalg.generic: buildContraction for maps that linalg.contract does not
/// take (a convolution's `i * stride + k * dilation` is not a projected
/// permutation). The body is mulf then addf, the form
/// rlx-optimize-contractions recognises.
Value buildMultiplyAccumulate(OpBuilder &b, Location loc, GenericOperand lhs,
                              GenericOperand rhs, GenericOperand init);

/// `acc + value` elementwise, written into `acc` (a generic with ins(value)
/// outs(acc), so bufferization updates acc in place). Both have the same
/// rank; `value` may differ from `acc` in which dims are static.
Value addInto(OpBuilder &b, Location loc, Value acc, Value value);

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

/// Elements from which a parallel loop pays for its fork and join (a few
/// microseconds; a scan's 16x128x128 step matmul does not).
constexpr int64_t kMinThreadedElements = int64_t(1) << 20;

/// Whether a loop over `elements` (ShapedType::kDynamic: unknown, taken as
/// large: dynamic batches are) built at `at` is worth an scf.forall on
/// threads: large, and in no loop (inside one, an attention block's in the
/// forall over heads, it would fork a nested parallel region per
/// iteration).
bool worthThreads(Operation *at, int64_t elements);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_COMMON_BUILDERS_H
