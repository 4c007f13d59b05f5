//===- PoolGrad.cpp - reverse rule of max_pool2d --------------------------===//
//
//   dx = max_pool2d_backward(x, dy)   (dy to each window's argmax; same
//   geometry: kernel, stride, padding, dilation, ceil_mode)
//
// and the second-order rule of max_pool2d_backward(x, dy): it routes each
// dy[w] to the argmax of window w of x, so it is linear in dy with adjoint
// u[w] = v[argmax w] (the forward-mode derivative of max_pool2d in direction
// v), and piecewise constant in x: its x-gradient is zero, the derivative
// of the selection almost everywhere (as in PyTorch). A direct rule: the
// decomposition reads dy with tensor.extract, which has no reverse rule.
//
//===----------------------------------------------------------------------===//
#include "Common/Builders.h"
#include "Common/GradGlue.h"
#include "Pool/PoolUtils.h"

#include "RlxAD/Dialect/Rlx/IR/RlxPoolOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

static LogicalResult gradMaxPool2d(OpBuilder &b, MaxPool2dOp op,
                                   ArrayRef<Value> dys, ArrayRef<bool> needed,
                                   SmallVectorImpl<Value> &dxs) {
  dxs[0] = createWithForwardAttrs<MaxPool2dBackwardOp>(
      b, op, op.getX().getType(), {op.getX(), dys[0]});
  return success();
}

static LogicalResult gradMaxPool2dBackward(OpBuilder &b, MaxPool2dBackwardOp op,
                                           ArrayRef<Value> dys,
                                           ArrayRef<bool> needed,
                                           SmallVectorImpl<Value> &dxs) {
  // dxs[0] (x) stays null: zero.
  if (!needed[1])
    return success();
  Location loc = op.getLoc();
  PoolGeometry geometry{op.getKernelSize(), op.getStride(), op.getPadding(),
                        op.getDilation()};
  ArrayRef<int64_t> kernel = geometry.kernel;
  Value x = op.getX(), dy = op.getDy();
  Value v = castToType(b, loc, dys[0], x.getType());
  Value best = buildWindowArgmax(b, loc, x, dy, geometry);
  AffineMap id = b.getMultiDimIdentityMap(4);
  dxs[1] = buildGeneric(
      b, loc, {{best, id}}, {{emptyLike(b, loc, dy), id}},
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        IndexMath m{nb, l};
        Type t = args[1].getType();
        Value a = args[0];
        Value valid = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::sge, a,
            arith::ConstantIntOp::create(nb, l, a.getType(), 0));
        Value flat = m.select(
            valid, arith::IndexCastOp::create(nb, l, nb.getIndexType(), a),
            m.c(0));
        Value kh = m.div(flat, m.c(kernel[1]));
        Value kw = arith::RemUIOp::create(nb, l, flat, m.c(kernel[1]));
        auto [h, w] = geometry.tapPosition(m, kh, kw);
        // A valid argmax lies inside x; elsewhere read (0, 0) and drop it.
        Value at = tensor::ExtractOp::create(
            nb, l, v,
            ValueRange{m.index(0), m.index(1), m.select(valid, h, m.c(0)),
                       m.select(valid, w, m.c(0))});
        return {m.select(valid, at, floatConst(nb, l, t, 0.0))};
      })[0];
  return success();
}

void mlir::rlx::attachPoolGradModels(MLIRContext *ctx) {
  GradList<Grad<MaxPool2dOp, gradMaxPool2d>,
           Grad<MaxPool2dBackwardOp, gradMaxPool2dBackward>>::attachModels(ctx);
}
