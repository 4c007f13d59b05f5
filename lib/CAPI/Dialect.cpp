//===- Dialect.cpp - C API of the rlx dialect and passes ------------------===//
#include "rlx-c/Dialect.h"

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "RlxAD/InitRlx.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

// Not MLIR_DEFINE_CAPI_DIALECT_REGISTRATION: its insert hook inserts the
// dialect class alone, and rlx is not usable without the dialects and
// interface models registerRlxDialect adds with it.
static void insertRlxDialect(MlirDialectRegistry registry) {
  rlx::registerRlxDialect(*unwrap(registry));
}
static MlirDialect loadRlxDialect(MlirContext context) {
  return wrap(unwrap(context)->getOrLoadDialect<rlx::RlxDialect>());
}
static MlirStringRef rlxDialectNamespace() {
  return wrap(rlx::RlxDialect::getDialectNamespace());
}

MlirDialectHandle mlirGetDialectHandle__rlx__() {
  static MlirDialectRegistrationHooks hooks = {insertRlxDialect, loadRlxDialect,
                                               rlxDialectNamespace};
  return MlirDialectHandle{&hooks};
}

void mlirRegisterRlxPipelineDependencies(MlirDialectRegistry registry) {
  rlx::registerRlxPipelineDependencies(*unwrap(registry));
}

void mlirRegisterRlxPasses() { rlx::registerRlxPasses(); }

MlirLogicalResult mlirRlxRunPipeline(MlirModule module,
                                     MlirStringRef pipeline) {
  ModuleOp moduleOp = unwrap(module);
  // The pipeline runs on the module itself, so a "builtin.module(...)"
  // wrapper, as mlir-opt --pass-pipeline takes it, is dropped.
  StringRef text = unwrap(pipeline).trim();
  if (text.consume_front("builtin.module(") && !text.consume_back(")"))
    return wrap(moduleOp.emitError("rlx: unbalanced pass pipeline '")
                << unwrap(pipeline) << "'");
  // Implicit nesting: a pass anchored on func.func named at the top level
  // nests itself instead of aborting the process (report_fatal_error).
  PassManager pm(moduleOp->getContext(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(text, pm, errorStream)))
    return wrap(moduleOp.emitError("rlx: invalid pass pipeline '")
                << unwrap(pipeline) << "': " << errors);
  return wrap(pm.run(moduleOp));
}
