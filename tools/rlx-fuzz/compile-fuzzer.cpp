//===- compile-fuzzer.cpp - libFuzzer: parse, verify, lower to LLVM -------===//
//
// Each input is MLIR text. It is parsed and verified; if it verifies, it goes
// through the runtime's pipeline (rlx-to-llvm with the run-time checks and
// the C interface). Diagnostics are expected and dropped: only a crash, a
// sanitizer report, a hang or a leak is a finding. Seed corpus:
// scripts/fuzz-corpus.py (the lit tests split at `// -----`).
//
//===----------------------------------------------------------------------===//
#include "RlxAD/InitRlx.h"
#include "RlxAD/Transforms/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

static const mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *r = [] {
    auto *r = new mlir::DialectRegistry;
    mlir::rlx::registerRlxDialect(*r);
    mlir::rlx::registerRlxPipelineDependencies(*r);
    return r;
  }();
  return *r;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: types and attributes of earlier inputs would
  // otherwise accumulate in the uniquer.
  mlir::MLIRContext context(registry(), mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler drop(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "<fuzz>"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr,
                                            mlir::ParserConfig(&context));
  if (!module)
    return 0;
  mlir::rlx::RlxPipelineOptions options;
  options.checkShapes = true;
  options.emitCInterface = true;
  mlir::PassManager pm(&context);
  mlir::rlx::buildRlxToLLVMPipeline(pm, options);
  (void)pm.run(*module); // verifies the input first
  return 0;
}
