//===- embed-opt.cpp - a third-party tool embedding rlx -------------------===//
//
// Shows the three embedding entry points: registerRlxDialect (dialect and
// its AggregatedOpInterface models), registerRlxPasses (passes and
// pipelines), and a pass of this tool's own built from a public
// populate*Patterns function.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/InitRlx.h"
#include "RlxAD/Transforms/Transforms.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace {
/// This tool's own pass: only the activation decompositions, via the public
/// populate function.
struct MyDecomposeActivations
    : public mlir::PassWrapper<MyDecomposeActivations, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MyDecomposeActivations)
  llvm::StringRef getArgument() const final {
    return "my-decompose-activations";
  }
  llvm::StringRef getDescription() const final {
    return "Decompose rlx activation gradients with rlx's public patterns";
  }
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    mlir::rlx::populateActivationDecompositionPatterns(patterns);
    if (mlir::failed(
            mlir::applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// Decomposes every op implementing linalg::AggregatedOpInterface, the way a
/// compiler that knows nothing about rlx would.
struct MyDecomposeAggregates
    : public mlir::PassWrapper<MyDecomposeAggregates, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MyDecomposeAggregates)
  llvm::StringRef getArgument() const final {
    return "my-decompose-aggregates";
  }
  llvm::StringRef getDescription() const final {
    return "Call decomposeOperation on every AggregatedOpInterface op";
  }
  void runOnOperation() override {
    llvm::SmallVector<mlir::linalg::AggregatedOpInterface> ops;
    getOperation()->walk(
        [&](mlir::linalg::AggregatedOpInterface op) { ops.push_back(op); });
    mlir::IRRewriter rewriter(&getContext());
    for (mlir::linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      auto values = op.decomposeOperation(rewriter);
      if (mlir::failed(values)) {
        op->emitError("decomposition failed");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *values);
    }
  }
};
} // namespace

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::rlx::registerRlxDialect(registry);
  mlir::rlx::registerRlxPasses();
  mlir::PassRegistration<MyDecomposeActivations>();
  mlir::PassRegistration<MyDecomposeAggregates>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "embed-opt: rlx inside another tool\n", registry));
}
