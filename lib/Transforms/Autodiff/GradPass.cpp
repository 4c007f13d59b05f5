//===- GradPass.cpp - the rlx-grad pass -----------------------------------===//
#include "RlxAD/Transforms/Autodiff.h"
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXGRAD
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// Marks a function for rlx-grad: a unit attribute, or the wrt indices.
constexpr StringLiteral kGradAttrName = "rlx.grad";

struct RlxGradPass : public rlx::impl::RlxGradBase<RlxGradPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The functions: `function`, or every function marked `rlx.grad`.
    SmallVector<func::FuncOp> funcs;
    if (!function.empty()) {
      auto func = module.lookupSymbol<func::FuncOp>(function);
      if (!func) {
        module.emitError() << "rlx-grad: no function named '" << function
                           << "'";
        return signalPassFailure();
      }
      funcs.push_back(func);
    } else {
      for (auto func : module.getOps<func::FuncOp>())
        if (func->hasAttr(kGradAttrName))
          funcs.push_back(func);
    }
    for (func::FuncOp func : funcs) {
      // wrt: the option, else the function's rlx.grad indices, else every
      // float argument.
      SmallVector<unsigned> indices(wrt.begin(), wrt.end());
      if (indices.empty())
        if (auto marked = func->getAttrOfType<DenseI64ArrayAttr>(kGradAttrName))
          for (int64_t i : marked.asArrayRef()) {
            if (i < 0) {
              func.emitError() << "rlx.grad index " << i << " is negative";
              return signalPassFailure();
            }
            indices.push_back(i);
          }
      if (indices.empty())
        for (auto [i, t] : llvm::enumerate(func.getArgumentTypes()))
          if (isa<FloatType>(getElementTypeOrSelf(t)))
            indices.push_back(i);
      func->removeAttr(kGradAttrName);
      if (failed(buildGradFunction(func, indices)))
        return signalPassFailure();
    }
  }
};
} // namespace
