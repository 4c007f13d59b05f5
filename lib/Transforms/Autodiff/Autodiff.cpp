//===- Autodiff.cpp - the reverse sweep and buildGradFunction -------------===//
//
// Reverse-mode autodiff over one block:
//
//   1. activity: a value is *varied* when it is a float tensor or scalar that
//      depends on a differentiated argument, *useful* when a differentiated
//      result depends on it; an op is active when a varied operand reaches a
//      useful result. Only active ops need a rule.
//   2. the sweep: ops in reverse order; each active op's GradOpInterface rule
//      turns the cotangents of its results into those of its operands, which
//      accumulate (linalg add) where a value fans out.
//
// The adjoint is built after the forward code, so rules reuse forward values
// as SSA values; rlx backward ops keep their own choice to recompute
// statistics from the forward inputs.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Autodiff.h"

#include "Autodiff/BackwardGrad.h"
#include "Autodiff/StructuredGrad.h"
#include "Common/Builders.h"
#include "Common/GradGlue.h"

#include "RlxAD/Autodiff/GradOpInterface.h"
#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::rlx;

Value mlir::rlx::castToType(OpBuilder &b, Location loc, Value value,
                            Type type) {
  if (!value || value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

Value mlir::rlx::zerosLike(OpBuilder &b, Location loc, Value like) {
  if (isa<ShapedType>(like.getType()))
    return filledLike(b, loc, like, 0.0);
  return floatConst(b, loc, like.getType(), 0.0);
}

static bool isFloatLike(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type));
}

/// The values an op reads: its operands and the values its regions use from
/// above.
static SmallVector<Value> capturedValues(Operation *op) {
  SetVector<Value> captured;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  return SmallVector<Value>(captured.begin(), captured.end());
}

/// acc + value for two cotangents of one value (tensors: a linalg add).
static Value accumulate(OpBuilder &b, Location loc, Value acc, Value value) {
  if (!acc)
    return value;
  if (!value)
    return acc;
  if (isa<ShapedType>(acc.getType()))
    return addInto(b, loc, acc, value);
  return arith::AddFOp::create(b, loc, acc, value);
}

FailureOr<SmallVector<Value>>
mlir::rlx::buildReverseSweep(OpBuilder &b, ArrayRef<Operation *> ops,
                             ValueRange wrt, ValueRange outputs,
                             ArrayRef<Value> outputCotangents) {
  // Forward activity.
  DenseSet<Value> varied;
  for (Value v : wrt)
    varied.insert(v);
  auto anyVaried = [&](Operation *op) {
    for (Value v : op->getOperands())
      if (varied.contains(v))
        return true;
    for (Value v : capturedValues(op))
      if (varied.contains(v))
        return true;
    return false;
  };
  for (Operation *op : ops)
    if (anyVaried(op))
      for (Value r : op->getResults())
        if (isFloatLike(r.getType()))
          varied.insert(r);

  // Backward usefulness.
  DenseSet<Value> useful;
  for (auto [v, cot] : llvm::zip(outputs, outputCotangents))
    if (cot)
      useful.insert(v);
  SmallVector<Operation *> active;
  for (Operation *op : llvm::reverse(ops)) {
    bool isUseful = llvm::any_of(op->getResults(), [&](Value r) {
      return useful.contains(r) && varied.contains(r);
    });
    if (!isUseful)
      continue;
    active.push_back(op);
    for (Value v : op->getOperands())
      useful.insert(v);
    for (Value v : capturedValues(op))
      useful.insert(v);
  }

  // The sweep.
  DenseMap<Value, Value> cotangents;
  auto addCotangent = [&](Value v, Value cot, Location loc) {
    cot = castToType(b, loc, cot, v.getType());
    cotangents[v] = accumulate(b, loc, cotangents.lookup(v), cot);
  };
  for (auto [v, cot] : llvm::zip(outputs, outputCotangents))
    if (cot)
      addCotangent(v, cot, v.getLoc());

  for (Operation *op : active) {
    SmallVector<Value> resultCots;
    bool any = false;
    for (Value r : op->getResults()) {
      resultCots.push_back(cotangents.lookup(r));
      any |= bool(resultCots.back());
    }
    if (!any)
      continue;
    // A varied value read inside a region (not as an operand) would need a
    // rule for the capture; none of the supported ops has one.
    for (Value v : capturedValues(op))
      if (varied.contains(v))
        return op->emitError()
               << "'" << op->getName()
               << "' is not differentiable with respect to a value its "
                  "region captures";
    auto grad = dyn_cast<GradOpInterface>(op);
    if (!grad && op->hasTrait<rlx::OpTrait::Backward>()) {
      // An rlx backward op without a direct rule: its decomposition, swept
      // on its own from the op's result cotangents to its varied operands.
      SmallVector<Value> inner;
      for (Value v : op->getOperands())
        if (varied.contains(v) && !llvm::is_contained(inner, v))
          inner.push_back(v);
      SmallVector<Operation *> newOps;
      SmallVector<Value> replacements;
      if (failed(decomposeForGrad(op, newOps, replacements)))
        return failure();
      FailureOr<SmallVector<Value>> innerCots =
          buildReverseSweep(b, newOps, inner, replacements, resultCots);
      if (failed(innerCots))
        return failure();
      for (auto [v, cot] : llvm::zip(inner, *innerCots))
        if (cot)
          addCotangent(v, cot, v.getLoc());
      continue;
    }
    if (!grad)
      return op->emitError()
             << "'" << op->getName() << "' is not differentiable (no "
             << "GradOpInterface rule)";
    SmallVector<bool> needed;
    for (Value v : op->getOperands())
      needed.push_back(varied.contains(v));
    SmallVector<Value> operandCots;
    if (failed(grad.buildAdjoint(b, resultCots, needed, operandCots)))
      return failure();
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (i < operandCots.size() && operandCots[i] && needed[i])
        addCotangent(v, operandCots[i], op->getLoc());
  }

  SmallVector<Value> result;
  for (Value v : wrt)
    result.push_back(cotangents.lookup(v));
  return result;
}

/// A float tensor with one element (0-d or all static dims 1), or a float.
static bool isScalarLoss(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType()) &&
         tensor.hasStaticShape() && tensor.getNumElements() == 1;
}

/// The constant 1 of a scalar-loss type.
static Value onesOf(OpBuilder &b, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    auto elementType = cast<FloatType>(tensor.getElementType());
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(tensor, b.getFloatAttr(elementType, 1.0)));
  }
  return floatConst(b, loc, type, 1.0);
}

FailureOr<func::FuncOp> mlir::rlx::buildGradFunction(func::FuncOp func,
                                                     ArrayRef<unsigned> wrt) {
  if (func.isExternal())
    return func.emitError("cannot differentiate a function without a body");
  if (!func.getBody().hasOneBlock())
    return func.emitError("cannot differentiate a function with more than one "
                          "block");
  FunctionType type = func.getFunctionType();
  DenseSet<unsigned> seen;
  for (unsigned index : wrt) {
    if (index >= type.getNumInputs())
      return func.emitError()
             << "wrt index " << index << " is out of range: '" << func.getName()
             << "' has " << type.getNumInputs() << " arguments";
    if (!isFloatLike(type.getInput(index)) ||
        !(isa<RankedTensorType, FloatType>(type.getInput(index))))
      return func.emitError()
             << "wrt index " << index << " names argument of type "
             << type.getInput(index) << ", not a float ranked tensor or float";
    if (!seen.insert(index).second)
      return func.emitError() << "wrt index " << index << " is repeated";
  }

  // Signature: arguments, then a cotangent per non-scalar float result;
  // results, then one gradient per wrt argument.
  SmallVector<Type> inputs(type.getInputs());
  SmallVector<int> cotangentArg(type.getNumResults(), -1);
  for (auto [i, t] : llvm::enumerate(type.getResults())) {
    if (!isFloatLike(t) || isScalarLoss(t))
      continue;
    cotangentArg[i] = inputs.size();
    inputs.push_back(t);
  }
  SmallVector<Type> results(type.getResults());
  for (unsigned index : wrt)
    results.push_back(type.getInput(index));

  // A declaration of @<name>_grad with this type (so that other functions
  // of the input can call it) gets the body; any other symbol of that name
  // is an error.
  OpBuilder b(func);
  FunctionType gradType = b.getFunctionType(inputs, results);
  std::string name = (func.getName() + "_grad").str();
  auto module = func->getParentOfType<ModuleOp>();
  func::FuncOp grad;
  bool isDeclaration = false;
  if (Operation *existing = module ? module.lookupSymbol(name) : nullptr) {
    grad = dyn_cast<func::FuncOp>(existing);
    if (!grad || !grad.isExternal() || grad.getFunctionType() != gradType)
      return func.emitError()
             << "cannot create '" << name << "': the symbol exists and is not "
             << "a declaration of type " << gradType;
    isDeclaration = true;
    // Declarations are private; the definition is as visible as `func`.
    grad.setVisibility(func.getVisibility());
  } else {
    b.setInsertionPointAfter(func);
    grad = func::FuncOp::create(b, func.getLoc(), name, gradType);
    grad.setVisibility(func.getVisibility());
  }
  IRMapping mapping;
  func.getBody().cloneInto(&grad.getBody(), mapping);
  Block &body = grad.getBody().front();
  for (Type t : ArrayRef<Type>(inputs).drop_front(type.getNumInputs()))
    body.addArgument(t, func.getLoc());

  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  b.setInsertionPoint(ret);
  SmallVector<Value> seeds;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    if (!isFloatLike(v.getType()))
      seeds.push_back(Value());
    else if (cotangentArg[i] >= 0)
      seeds.push_back(body.getArgument(cotangentArg[i]));
    else
      seeds.push_back(onesOf(b, ret.getLoc(), v.getType()));
  }
  SmallVector<Value> wrtValues;
  for (unsigned index : wrt)
    wrtValues.push_back(body.getArgument(index));
  FailureOr<SmallVector<Value>> grads =
      buildReverseSweep(b, ops, wrtValues, ret.getOperands(), seeds);
  if (failed(grads)) {
    if (isDeclaration) {
      grad.getBody().getBlocks().clear();
      grad.setPrivate();
    } else {
      grad.erase();
    }
    return failure();
  }
  SmallVector<Value> returned(ret.getOperands());
  for (auto [v, g] : llvm::zip(wrtValues, *grads))
    returned.push_back(g ? castToType(b, ret.getLoc(), g, v.getType())
                         : zerosLike(b, ret.getLoc(), v));
  func::ReturnOp::create(b, ret.getLoc(), returned);
  ret.erase();
  return grad;
}

void mlir::rlx::registerGradInterfaceModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, RlxDialect *) {
#define RLX_FAMILY(Family) attach##Family##GradModels(ctx);
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"
  });
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachLinalgGradModels(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    attachTensorGradModels(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attachArithGradModels(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    attachMathGradModels(ctx);
  });
}
