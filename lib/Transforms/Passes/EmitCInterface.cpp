//===- EmitCInterface.cpp - the rlx-emit-c-interface pass -----------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXEMITCINTERFACE
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxEmitCInterfacePass
    : public rlx::impl::RlxEmitCInterfaceBase<RlxEmitCInterfacePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(ctx));
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type))
          func.setArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName,
              BoolAttr::get(ctx, false));
    }
  }
};
} // namespace
