/*===- rlx-c/Dialect.h - rlx for embedders of MLIR's C API --------*- C -*-===*\
|*                                                                            *|
|* Registers the rlx dialect and passes with upstream's C API (mlir-c/) and   *|
|* runs rlx's pipelines on an MlirModule. Link librlx-capi.so and upstream's  *|
|* MLIRCAPIIR (the installed CMake package exports RlxAD::RlxCAPI).           *|
|*                                                                            *|
|*   MlirContext ctx = mlirContextCreate();                                   *|
|*   MlirDialectRegistry reg = mlirDialectRegistryCreate();                   *|
|*   mlirDialectHandleInsertDialect(mlirGetDialectHandle__rlx__(), reg);      *|
|*   mlirRegisterRlxPipelineDependencies(reg);     // for rlx-to-llvm         *|
|*   mlirContextAppendDialectRegistry(ctx, reg);                              *|
|*   mlirRegisterRlxPasses();                                                 *|
|*   MlirModule m = mlirModuleCreateParse(ctx, text);                         *|
|*   if (mlirLogicalResultIsFailure(mlirRlxRunPipeline(                       *|
|*           m, mlirStringRefCreateFromCString("rlx-to-linalg")))) ...        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef RLX_C_DIALECT_H
#define RLX_C_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__rlx__(): inserting it into a registry inserts the rlx
/// dialect, the upstream dialects its decompositions produce, and the
/// interface models rlx attaches to them (decomposition, rlx-grad rules), as
/// mlir::rlx::registerRlxDialect does.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Rlx, rlx);

/// Inserts what the rlx-to-llvm pipeline needs beyond the dialect handle
/// (bufferization, memref, LLVM, OpenMP, ... and their external models).
MLIR_CAPI_EXPORTED void
mlirRegisterRlxPipelineDependencies(MlirDialectRegistry registry);

/// Registers every rlx pass and the rlx-to-linalg / rlx-to-llvm pipelines in
/// the global pass registry, so textual pipelines can name them.
MLIR_CAPI_EXPORTED void mlirRegisterRlxPasses(void);

/// Runs `pipeline` on `module` (in place): a textual pass pipeline nested on
/// the module, e.g. "rlx-decompose-backward", "rlx-to-linalg",
/// "rlx-to-llvm{check-shapes=1}" or
/// "rlx-decompose-backward,func.func(canonicalize)". mlirRegisterRlxPasses
/// must have run. Diagnostics (a bad pipeline or a failing pass) go to the
/// context's diagnostic handlers; returns failure then.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirRlxRunPipeline(MlirModule module,
                                                        MlirStringRef pipeline);

#ifdef __cplusplus
}
#endif

#endif /* RLX_C_DIALECT_H */
