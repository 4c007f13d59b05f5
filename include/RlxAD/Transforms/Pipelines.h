//===- Pipelines.h - rlx-to-linalg and rlx-to-llvm pipelines ------*- C++ -*-===//
#ifndef RLXAD_TRANSFORMS_PIPELINES_H
#define RLXAD_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace rlx {

/// Options of both pipelines; the decomposition knobs mirror
/// rlx-decompose-backward's.
struct RlxPipelineOptions : public PassPipelineOptions<RlxPipelineOptions> {
  PassOptions::Option<int64_t> cumsumMatrixMaxLength{
      *this, "cumsum-matrix-max-length",
      llvm::cl::desc("cumsum_backward matmul/scan threshold"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> scanUnrollMaxLength{
      *this, "scan-unroll-max-length",
      llvm::cl::desc("scan_backward unroll/loop threshold"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> im2colMaxElements{
      *this, "im2col-max-elements",
      llvm::cl::desc("conv2d_backward_weight im2col buffer cap (0 = none)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("rlx-to-llvm: polynomial approximations of f32 "
                     "tanh/erf/exp/log/atan (vectorisable, a few ulp)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> loopOrder{
      *this, "loop-order",
      llvm::cl::desc("rlx-to-llvm: put a unit-stride loop innermost in every "
                     "linalg op before lowering to loops (rlx-loop-order)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkShapes{
      *this, "check-shapes",
      llvm::cl::desc("rlx-to-llvm: check at run time that the shapes each "
                     "linalg op relates agree (rlx-check-shapes; the runtime "
                     "turns a failure into an error)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("rlx-to-llvm: add llvm.emit_c_interface to public "
                     "functions (the runtime's calling convention)"),
      llvm::cl::init(false)};
};

/// rlx -> linalg on tensors: decompose backward ops, lower forward ops,
/// canonicalize and CSE. For compilers that take linalg from there.
void buildRlxToLinalgPipeline(OpPassManager &pm,
                              const RlxPipelineOptions &options);

/// rlx -> LLVM dialect: rlx-to-linalg, one-shot bufferization with
/// function-boundary bufferization, ownership-based deallocation, lowering to
/// loops and the LLVM dialect. The result runs with mlir-runner or translates
/// with mlir-translate --mlir-to-llvmir.
void buildRlxToLLVMPipeline(OpPassManager &pm,
                            const RlxPipelineOptions &options);

/// Registers both pipelines (`--rlx-to-linalg`, `--rlx-to-llvm`).
void registerRlxPipelines();

} // namespace rlx
} // namespace mlir

#endif // RLXAD_TRANSFORMS_PIPELINES_H
