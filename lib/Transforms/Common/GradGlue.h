//===- GradGlue.h - reverse-mode rules as GradOpInterface models -*- C++
//-*-===//
//
// Each differentiable op has one function
//
//   static LogicalResult gradFoo(OpBuilder &b, FooOp op, ArrayRef<Value> dys,
//                                ArrayRef<bool> needed,
//                                SmallVectorImpl<Value> &dxs);
//
// that reads the result cotangents `dys` (null = zero), and sets `dxs[i]`
// (pre-sized to the operand count, null = zero) for the operands with
// `needed[i]`. GradModel turns it into the op's rlx::GradOpInterface model;
// rlx-grad (lib/Transforms/Autodiff/) calls it. A rule that cannot build a
// gradient emits an error on the op and fails; it never returns a wrong one.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_TRANSFORMS_COMMON_GRADGLUE_H
#define RLX_LIB_TRANSFORMS_COMMON_GRADGLUE_H

#include "RlxAD/Autodiff/GradOpInterface.h"
#include "mlir/IR/Builders.h"

namespace mlir::rlx {

template <typename OpTy>
using GradFn = LogicalResult (*)(OpBuilder &, OpTy, ArrayRef<Value>,
                                 ArrayRef<bool>, SmallVectorImpl<Value> &);

/// GradOpInterface backed by a rule function.
template <typename OpTy, GradFn<OpTy> Fn>
struct GradModel : GradOpInterface::ExternalModel<GradModel<OpTy, Fn>, OpTy> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &b,
                             ArrayRef<Value> resultCotangents,
                             ArrayRef<bool> needed,
                             SmallVectorImpl<Value> &operandCotangents) const {
    operandCotangents.assign(op->getNumOperands(), Value());
    return Fn(b, cast<OpTy>(op), resultCotangents, needed, operandCotangents);
  }
};

/// One op and its rule.
template <typename OpTy, GradFn<OpTy> Fn> struct Grad {
  static void attachModel(MLIRContext *ctx) {
    OpTy::template attachInterface<GradModel<OpTy, Fn>>(*ctx);
  }
};

/// The rules of one family.
template <typename... Gs> struct GradList {
  static void attachModels(MLIRContext *ctx) { (Gs::attachModel(ctx), ...); }
};

/// A backward op `OpTy` with the forward op's attributes (for families whose
/// backward ops share the forward attribute set, such as the activation
/// parameters or the pooling geometry), so the rule follows new attributes.
template <typename OpTy>
Value createWithForwardAttrs(OpBuilder &b, Operation *forward, Type type,
                             ValueRange operands) {
  OperationState state(forward->getLoc(), OpTy::getOperationName());
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(forward->getAttrs());
  return b.create(state)->getResult(0);
}

/// `value` as type `type`: unchanged, or a tensor.cast between compatible
/// shapes (a rule's result may be more or less static than the operand).
Value castToType(OpBuilder &b, Location loc, Value value, Type type);

/// A zero tensor (or scalar) like `like`.
Value zerosLike(OpBuilder &b, Location loc, Value like);

/// attach<Family>GradModels, one per family (lib/Transforms/<Family>/
/// <Family>Grad.cpp): the GradOpInterface models of its forward ops.
#define RLX_FAMILY(Family) void attach##Family##GradModels(MLIRContext *ctx);
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"

} // namespace mlir::rlx

#endif // RLX_LIB_TRANSFORMS_COMMON_GRADGLUE_H
