/*===- rlx-c/Runtime.h - C API of the rlx JIT runtime ------------*- C -*-===*\
|*                                                                            *|
|* Compile an rlx/MLIR module (text) through the rlx-to-llvm pipeline, JIT it *|
|* with LLVM at -O3 for the host CPU, and call its functions on tensors.      *|
|*                                                                            *|
|*   char *err = NULL;                                                        *|
|*   RlxModule *m = rlxModuleCompile(text, strlen(text), NULL, &err);         *|
|*   RlxTensor in[2] = {...}, *out = NULL; size_t nOut = 0;                   *|
|*   if (rlxModuleCall(m, "f", in, 2, &out, &nOut, &err) != 0) { ... }        *|
|*   rlxTensorsDestroy(out, nOut); rlxModuleDestroy(m);                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef RLX_C_RUNTIME_H
#define RLX_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum RlxDType {
  RLX_F32 = 0,
  RLX_F64 = 1,
  RLX_I32 = 2,
  RLX_I64 = 3,
  /* IEEE half (numpy float16). */
  RLX_F16 = 4,
  /* bfloat16: the upper 16 bits of an f32, stored as uint16_t (numpy has no
   * bf16 dtype; Python passes and returns numpy uint16 arrays). */
  RLX_BF16 = 5,
} RlxDType;

/// A dense, row-major (C order) tensor. Inputs are borrowed; outputs are
/// owned by the caller and released with rlxTensorsDestroy.
typedef struct RlxTensor {
  RlxDType dtype;
  int64_t rank;
  int64_t *shape; /* rank entries */
  void *data;
  /* Outputs only: the runtime's handle on the buffer behind `data`, released
   * by rlxTensorsDestroy. Set it to NULL in inputs. */
  void *owner;
} RlxTensor;

typedef struct RlxModule RlxModule;

/// Parses, verifies and compiles `source`. `pipelineOptions` is the option
/// string of the rlx-to-llvm pipeline (e.g. "cumsum-matrix-max-length=64"),
/// or NULL. On failure returns NULL and, if `error` is not NULL, stores a
/// message the caller frees with rlxStringDestroy.
RlxModule *rlxModuleCompile(const char *source, size_t length,
                            const char *pipelineOptions, char **error);

/// rlxModuleCompile whose diagnostics name `sourceName` (e.g. the path the
/// source was read from): "<sourceName>:line:col: error: ...". With NULL, and
/// in rlxModuleCompile, the name is "<string>".
RlxModule *rlxModuleCompileNamed(const char *source, size_t length,
                                 const char *sourceName,
                                 const char *pipelineOptions, char **error);

void rlxModuleDestroy(RlxModule *module);

/// Number of public functions and the name of the i-th (owned by module).
size_t rlxModuleNumFunctions(const RlxModule *module);
const char *rlxModuleFunctionName(const RlxModule *module, size_t index);
/// The MLIR type of the i-th public function (owned by module), e.g.
/// "(tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>"; NULL if out of range.
const char *rlxModuleFunctionType(const RlxModule *module, size_t index);

/// Caps the bytes the compiled code of one call may hold at once (0, the
/// default: no cap). An allocation over the cap, like one malloc cannot
/// satisfy, makes rlxModuleCall fail with "rlx: cannot allocate N bytes ...".
void rlxModuleSetMemoryLimit(RlxModule *module, uint64_t bytes);

/// Calls `function`. Inputs must match the signature's arity, element types,
/// ranks and static dims (dynamic dims are taken from the inputs); otherwise
/// nothing runs and an error is returned. On success returns 0 and stores a
/// malloc'd array of `*numOutputs` tensors in `*outputs`. On failure returns
/// non-zero and stores a message in `*error` (if not NULL). A failed call
/// (a run-time shape check, an allocation) frees all it had allocated.
int rlxModuleCall(RlxModule *module, const char *function,
                  const RlxTensor *inputs, size_t numInputs,
                  RlxTensor **outputs, size_t *numOutputs, char **error);

/// Frees tensors returned by rlxModuleCall (their buffers, shapes and the
/// array).
void rlxTensorsDestroy(RlxTensor *tensors, size_t count);

/// Releases one output tensor's buffer and shape (not the RlxTensor itself)
/// and sets `data`, `shape` and `owner` to NULL, which rlxTensorsDestroy then
/// skips. To keep one result's buffer longer than the others': copy its
/// RlxTensor, set the original's `shape` and `owner` to NULL, destroy the
/// array, and release the copy when done.
void rlxTensorRelease(RlxTensor *tensor);

void rlxStringDestroy(char *string);

/// The number of threads of the parallel loops of compiled code (default:
/// the environment's RLX_NUM_THREADS, else the number of cores); values
/// < 1 restore the default. Results are bitwise the same for any count.
void rlxSetNumThreads(int numThreads);
int rlxGetNumThreads(void);

#ifdef __cplusplus
}
#endif

#endif /* RLX_C_RUNTIME_H */
