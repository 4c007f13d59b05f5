/* Embeds rlx through upstream's C API (mlir-c/) and rlx-c/Dialect.h: the
 * dialect handle, pass registration and the pipeline runner, plus the
 * failure paths (bad IR, bad pipeline, failing pass) without a crash. */
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "rlx-c/Dialect.h"

#include <stdio.h>

static const char *kModule =
    "func.func @grad(%x: tensor<?x3xf32>, %dy: tensor<?x3xf32>) -> "
    "tensor<?x3xf32> {\n"
    "  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<tanh>}\n"
    "      : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>\n"
    "  return %dx : tensor<?x3xf32>\n"
    "}\n";

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static int run(MlirContext ctx, const char *pipeline) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    printf("parse failed\n");
    return 1;
  }
  MlirLogicalResult result =
      mlirRlxRunPipeline(module, mlirStringRefCreateFromCString(pipeline));
  printf("%s: %s\n", pipeline,
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  if (mlirLogicalResultIsSuccess(result)) {
    mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
    printf("\n");
  }
  mlirModuleDestroy(module);
  return 0;
}

int main(void) {
  MlirDialectHandle rlx = mlirGetDialectHandle__rlx__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(rlx);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirDialectHandleInsertDialect(rlx, registry);
  mlirRegisterRlxPipelineDependencies(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterRlxPasses();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  int status = run(ctx, "rlx-decompose-backward");
  status |= run(ctx, "builtin.module(rlx-to-linalg)");
  status |= run(ctx, "rlx-to-llvm");
  status |= run(ctx, "no-such-pass");
  status |= run(ctx, "builtin.module(rlx-to-linalg");

  /* Malformed rlx: the verifier names the op and the problem. */
  MlirModule bad = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%x: tensor<2xf32>, %dy: tensor<3xf32>) {\n"
               "  %dx = rlx.activation_backward %x, %dy {kind = "
               "#rlx.activation<tanh>}\n"
               "      : tensor<2xf32>, tensor<3xf32> -> tensor<2xf32>\n"
               "  return\n}\n"));
  printf("bad module is null: %d\n", mlirModuleIsNull(bad));

  mlirContextDestroy(ctx);
  return status;
}
