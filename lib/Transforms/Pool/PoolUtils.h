//===- PoolUtils.h - shared mathematics of the pool family -----*- C++ -*-===//
//
// The window argmax of max pooling (PyTorch's selection rule), shared by the
// decomposition of max_pool2d_backward and its second-order rule.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_POOL_POOLUTILS_H
#define RLX_LIB_TRANSFORMS_POOL_POOLUTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Small index arithmetic on the builder of a generic body.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value lt(Value x, Value y) { return cmp(arith::CmpIPredicate::slt, x, y); }
  Value ge(Value x, Value y) { return cmp(arith::CmpIPredicate::sge, x, y); }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value either(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  /// 0 <= x < bound.
  Value inRange(Value x, Value bound) {
    return both(ge(x, c(0)), lt(x, bound));
  }
  Value index(int64_t dim) { return linalg::IndexOp::create(b, loc, dim); }
};

/// The pooling geometry of max_pool2d and max_pool2d_backward.
struct PoolGeometry {
  ArrayRef<int64_t> kernel, stride, padding, dilation;

  /// Inside a generic whose loops 2 and 3 are the output's (ho, wo): x's
  /// (h, w) of tap (kh, kw) of that window, the window origin + tap *
  /// dilation. Outside [0, H) x [0, W) for a tap in the padding.
  std::pair<Value, Value> tapPosition(IndexMath &m, Value kh, Value kw) const {
    Value h = m.sub(
        m.add(m.mul(m.index(2), m.c(stride[0])), m.mul(kh, m.c(dilation[0]))),
        m.c(padding[0]));
    Value w = m.sub(
        m.add(m.mul(m.index(3), m.c(stride[1])), m.mul(kw, m.c(dilation[1]))),
        m.c(padding[1]));
    return {h, w};
  }
};

/// The argmax of every window of x (i64, shaped like `outLike`, the pooled
/// output or dy): the flat window index kh*kW + kw of the first maximum in
/// row-major order, where a NaN beats every number and the later NaN wins
/// (PyTorch's CPU and CUDA rule), padded positions never win, -1 for a
/// window with no position in x.
Value buildWindowArgmax(OpBuilder &b, Location loc, Value x, Value outLike,
                        const PoolGeometry &geometry);

class MaxPool2dBackwardOp;

/// dx of max_pool2d_backward by (n, c) planes (MaxPoolPlanes.cpp), for
/// dilation 1 and static H, W, Ho, Wo: a vectorized argmax per plane, then
/// dy added at each argmax in window order, or with `direct` one
/// elementwise generic (kernel == stride: a select of dy at the argmax
/// positions; H, W multiples of the stride: a sum over the windows that
/// may contain each position).
Value buildMaxPoolPlanes(RewriterBase &rewriter, MaxPool2dBackwardOp op,
                         bool direct);

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_POOL_POOLUTILS_H
