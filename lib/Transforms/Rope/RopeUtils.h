//===- RopeUtils.h - the rotary-embedding rotation, shared ------*- C++ -*-===//
//
// rlx.rope and rlx.rope_backward are the same rotation with sin and -sin; both
// rewrites build it here.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_ROPE_ROPEUTILS_H
#define RLX_LIB_TRANSFORMS_ROPE_ROPEUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// The NeoX rotation of x ([B, S, H*D] or [S, H*D]) by cos/sin ([S, D/2]).
/// With h = n_rot/2 and each head's halves a = x[.., 0:h], b = x[.., h:2h]
/// (j < h indexes the tables' columns):
///   y[.., j]     = a[j]*cos[s,j] - b[j]*sin[s,j]
///   y[.., h + j] = b[j]*cos[s,j] + a[j]*sin[s,j]
///   y[.., i]     = x[.., i]  for i >= n_rot
/// as one linalg.generic over (.., s, head, j) on [.., S, H, D] slices (no
/// gathers: it vectorizes along j, and rlx-grad differentiates it again).
/// `inverse` rotates by -sin (the transpose, i.e. the gradient). n_rot == 0
/// returns x.
Value buildRopeRotation(OpBuilder &b, Location loc, Value x, Value cos,
                        Value sin, int64_t headDim, int64_t nRot, bool inverse);

/// The gradients of <u, rotation(x)> with respect to the cos and sin tables
/// (the rotation of buildRopeRotation, `inverse` as there), shaped like
/// `cos` ([S, D/2]): with h = n_rot/2, summed over the batch and heads,
///   dcos[s,j] = u[j] x[j] + u[j+h] x[j+h]
///   dsin[s,j] = u[j+h] x[j] - u[j] x[j+h]   (negated for `inverse`)
/// and 0 for the columns j >= h that rotate nothing. Built from the halves of
/// x and u as [.., S, H, D] slices (no gathers), so it is differentiable
/// again by the rules of linalg and tensor ops.
std::pair<Value, Value> buildRopeTableGrads(OpBuilder &b, Location loc, Value x,
                                            Value u, Value cos, int64_t headDim,
                                            int64_t nRot, bool inverse);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_ROPE_ROPEUTILS_H
