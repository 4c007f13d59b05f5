//===- CheckShapes.cpp - the rlx-check-shapes pass ------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
    // linalg ops (O(1) checks per op) and the slices of the scf loops
    // (gather_backward, scan): one check per slice. Not the per-element
    // tensor.extract inside generic bodies: those reads are clamped by
    // construction and a branch per element would cost too much.
    SmallVector<RuntimeVerifiableOpInterface> ops;
    getOperation()->walk([&](RuntimeVerifiableOpInterface op) {
      if (op->getParentOfType<linalg::LinalgOp>())
        return;
      // tensor.cast: the casts to a result type more static than the
      // operand's shape.
      if (isa<linalg::LinalgOp, tensor::CastOp, tensor::ExtractSliceOp,
              tensor::InsertSliceOp>(op.getOperation()))
        ops.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (RuntimeVerifiableOpInterface verifiable : ops) {
      Operation *op = verifiable.getOperation();
      builder.setInsertionPoint(op);
      verifiable.generateRuntimeVerification(
          builder, op->getLoc(), [](Operation *op, StringRef msg) {
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
