//===- CheckShapes.cpp - the rlx-check-shapes pass ------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCHECKSHAPES
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxCheckShapesPass
    : public rlx::impl::RlxCheckShapesBase<RlxCheckShapesPass> {
  void runOnOperation() override {
    // Only linalg ops: their checks are O(1) per op. Per-element checks
    // (tensor.extract inside generic bodies) would cost a branch per element;
    // those reads are clamped by construction.
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<linalg::LinalgOp>())
        ops.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (linalg::LinalgOp op : ops) {
      auto verifiable = dyn_cast<RuntimeVerifiableOpInterface>(op.getOperation());
      if (!verifiable)
        continue;
      builder.setInsertionPoint(op);
      verifiable.generateRuntimeVerification(
          builder, op.getLoc(), [](Operation *op, StringRef msg) {
            std::string s;
            llvm::raw_string_ostream os(s);
            os << "rlx: run-time shape check failed in '" << op->getName()
               << "' at " << op->getLoc() << ": " << msg;
            return s;
          });
    }
  }
};
} // namespace
