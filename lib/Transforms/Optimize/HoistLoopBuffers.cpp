//===- HoistLoopBuffers.cpp - the rlx-hoist-loop-buffers pass ------------===//
//
// Row-blocked code (fuse-rows' row groups, attention's query blocks) works
// on small temporaries that bufferization allocates in the loop body: one
// malloc and free per row and temporary (~57,000 per call of the 2x8x512
// attention gradient). Each goes through the runtime's guarded allocator, and
// on threads they queue on it. This pass moves such an allocation in front
// of its scf.for when its sizes are defined outside the loop and the buffer
// does not outlive an iteration (it is not yielded to the next one or out of
// the loop): every iteration then reuses one buffer. Each iteration wrote
// the temporary before reading it (a tensor.empty is undefined), so reuse
// does not change results. Allocations are never moved out of a parallel
// loop (scf.forall, scf.parallel): each thread keeps its own buffers.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXHOISTLOOPBUFFERS
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Whether the buffer `alloc` may outlive an iteration of `loop`: a value
/// that aliases it (through views, loop-carried arguments, inner loops' and
/// ifs' results) reaches `loop`'s yield, a call or return, or an op that
/// could return an alias this function does not follow.
static bool outlivesIteration(memref::AllocOp alloc, scf::ForOp loop) {
  Operation *loopYield = loop.getBody()->getTerminator();
  SmallVector<Value> work{alloc.getResult()};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == loopYield || isa<CallOpInterface>(user) ||
          (user->hasTrait<OpTrait::ReturnLike>() && !isa<scf::YieldOp>(user)))
        return true;
      if (isa<ViewLikeOpInterface>(user)) {
        work.append(user->result_begin(), user->result_end());
      } else if (auto inner = dyn_cast<scf::ForOp>(user)) {
        if (OpResult result = inner.getTiedLoopResult(&use)) {
          work.push_back(result);
          work.push_back(inner.getTiedLoopRegionIterArg(&use));
        }
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        if (!isa<scf::ForOp, scf::IfOp>(parent))
          return true;
        work.push_back(parent->getResult(use.getOperandNumber()));
        if (auto inner = dyn_cast<scf::ForOp>(parent))
          work.push_back(inner.getRegionIterArgs()[use.getOperandNumber()]);
      } else if (llvm::any_of(user->getResultTypes(), [](Type type) {
                   return isa<BaseMemRefType, TensorType>(type);
                 })) {
        return true;
      }
    }
  }
  return false;
}

namespace {
struct RlxHoistLoopBuffersPass
    : public rlx::impl::RlxHoistLoopBuffersBase<RlxHoistLoopBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation()->walk([&](memref::AllocOp op) { allocs.push_back(op); });
    for (memref::AllocOp alloc : allocs) {
      while (auto loop = dyn_cast<scf::ForOp>(alloc->getParentOp())) {
        if (!llvm::all_of(
                alloc->getOperands(),
                [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }) ||
            outlivesIteration(alloc, loop))
          break;
        alloc->moveBefore(loop);
      }
    }
  }
};
} // namespace
