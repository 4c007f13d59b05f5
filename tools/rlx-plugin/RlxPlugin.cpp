//===- RlxPlugin.cpp - rlx as a plugin of stock mlir-opt ------------------===//
//
// One shared library that is both a dialect plugin and a pass plugin, so that
// an unmodified mlir-opt (Debian's mlir-opt-22) can parse rlx and run its
// passes and pipelines:
//
//   mlir-opt-22 --load-dialect-plugin=librlx-plugin.so \
//               --load-pass-plugin=librlx-plugin.so \
//               --rlx-to-llvm model.mlir
//
// mlir-opt links libMLIR.so, like the rlx libraries this plugin pulls in, so
// both sides share one MLIR (one TypeID per dialect, one pass registry).
// mlir-opt already registers every upstream dialect, extension and pass the
// rlx pipelines need; the plugin adds only rlx and what it attaches.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/InitRlx.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "rlx", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::rlx::registerRlxDialect(*registry);
            // The pipelines' bufferization/LLVM-translation models: mlir-opt
            // registers most, these calls are idempotent for the rest.
            mlir::rlx::registerRlxPipelineDependencies(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "rlx", LLVM_VERSION_STRING,
          []() { mlir::rlx::registerRlxPasses(); }};
}
