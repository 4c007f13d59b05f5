//===- BackwardGrad.cpp - the decomposition route of higher-order AD -----===//
//
// A gradient function contains rlx *_backward ops; differentiating it again
// (a gradient penalty, a Hessian-vector product, a meta-learning step) needs
// their adjoints. Ops with a direct rule (a GradOpInterface model attached
// in <Family>Grad.cpp: linear ops whose adjoint is another rlx op, such as
// gather_backward's gather) use it; the others are expanded here by the same
// rewrite functions as rlx-decompose-backward and the sweep differentiates
// the resulting linalg/tensor/arith/math ops (Autodiff.cpp).
//
// The options pick the loop-free form of each decomposition, since the
// upstream rules do not differentiate scf loops: the triangular-matrix
// cumsum and the unrolled scan for every static length, attention over all
// heads at once. A dynamic length still yields a loop, and the sweep then
// names the scf op it cannot differentiate.
//
//===----------------------------------------------------------------------===//
#include "Autodiff/BackwardGrad.h"

#include "RlxAD/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// Records the values that replace the target op and the reason its
/// pattern gave when it did not apply.
struct CaptureListener : RewriterBase::Listener {
  Operation *target = nullptr;
  SmallVector<Value> replacements;
  bool replaced = false;
  std::string reason;

  void notifyOperationReplaced(Operation *op, ValueRange values) override {
    if (op != target)
      return;
    replaced = true;
    replacements.assign(values.begin(), values.end());
  }
  void notifyMatchFailure(Location,
                          function_ref<void(Diagnostic &)> fn) override {
    Diagnostic diag(UnknownLoc(), DiagnosticSeverity::Remark);
    fn(diag);
    reason = diag.str();
  }
};
} // namespace

static DecompositionOptions gradDecompositionOptions(Operation *target) {
  DecompositionOptions options;
  constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
  options.cumsumMatrixMaxLength = kAny;
  options.cumsumBlockLength = 0;
  options.cumsumTileBytes = 0;
  options.scanUnrollMaxLength = kAny;
  options.im2colMaxElements = 0;
  options.attentionPerHead = false;
  options.attentionBlocks = false;
  options.filter = [target](Operation *op) { return op == target; };
  return options;
}

LogicalResult
mlir::rlx::decomposeForGrad(Operation *op, SmallVectorImpl<Operation *> &newOps,
                            SmallVectorImpl<Value> &replacements) {
  MLIRContext *ctx = op->getContext();
  Block *block = op->getBlock();
  Operation *prev = op->getPrevNode();
  Operation *next = op->getNextNode();

  RewritePatternSet patterns(ctx);
  populateDecomposeBackwardPatterns(patterns, gradDecompositionOptions(op));
  FrozenRewritePatternSet frozen(std::move(patterns));
  CaptureListener listener;
  listener.target = op;
  GreedyRewriteConfig config;
  // Only this op: no folding or constant hoisting that would move ops out
  // of the range [prev, next) read below.
  config.setStrictness(GreedyRewriteStrictness::ExistingOps)
      .enableFolding(false)
      .enableConstantCSE(false)
      .setListener(&listener);
  std::string name = op->getName().getStringRef().str();
  Location loc = op->getLoc();
  (void)applyOpPatternsGreedily(ArrayRef<Operation *>{op}, frozen, config);
  if (!listener.replaced)
    return emitError(loc) << "'" << name
                          << "' is not differentiable: it has no rule and "
                             "could not be decomposed"
                          << (listener.reason.empty() ? "" : ": ")
                          << listener.reason;
  replacements.assign(listener.replacements.begin(),
                      listener.replacements.end());
  auto begin = prev ? std::next(prev->getIterator()) : block->begin();
  auto end = next ? next->getIterator() : block->end();
  for (Operation &o : llvm::make_range(begin, end))
    newOps.push_back(&o);
  return success();
}
