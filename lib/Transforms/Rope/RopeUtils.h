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

/// The NeoX rotation of x ([B, S, H*D] or [S, H*D]) by cos/sin ([S, D/2]) as
/// one linalg.generic over x's shape. With h = n_rot/2, k the last index,
/// i = k mod D and j = i mod h:
///   i <  h:      y = x[k]*cos[s,j] - x[k+h]*sin[s,j]
///   h <= i < 2h: y = x[k]*cos[s,j] + x[k-h]*sin[s,j]
///   i >= n_rot:  y = x[k]
/// `inverse` rotates by -sin (the transpose, i.e. the gradient). The partner
/// element and cos/sin are read with tensor.extract at indices clamped into
/// range, so nothing is read out of bounds. n_rot == 0 returns x.
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
