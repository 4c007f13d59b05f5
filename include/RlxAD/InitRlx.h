//===- InitRlx.h - embed rlx in another MLIR compiler -----------*- C++ -*-===//
//
//   mlir::DialectRegistry registry;
//   mlir::rlx::registerRlxDialect(registry);   // dialect + interface models
//   mlir::rlx::registerRlxPipelineDependencies(registry); // for rlx-to-llvm
//   mlir::rlx::registerRlxPasses();            // passes + pipelines
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_INITRLX_H
#define RLXAD_INITRLX_H

namespace mlir {
class DialectRegistry;
namespace rlx {

/// Inserts the rlx dialect, the dialects its passes produce, and the
/// linalg::AggregatedOpInterface models of the backward ops.
void registerRlxDialect(DialectRegistry &registry);

/// Inserts what the rlx-to-llvm pipeline needs beyond registerRlxDialect:
/// the bufferization, memref, cf, llvm, ... dialects, the bufferization
/// external models of the upstream dialects, and the LLVM IR translations.
void registerRlxPipelineDependencies(DialectRegistry &registry);

/// Registers rlx-decompose-backward, rlx-lower-to-linalg,
/// rlx-emit-c-interface and the rlx-to-linalg / rlx-to-llvm pipelines.
void registerRlxPasses();

} // namespace rlx
} // namespace mlir

#endif // RLXAD_INITRLX_H
