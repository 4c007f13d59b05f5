//===- Runtime.h - compile rlx modules, call them on tensors ----*- C++ -*-===//
//
//   auto module = rlx::runtime::JitModule::compile(text);
//   if (!module) { llvm::errs() << llvm::toString(module.takeError()); ... }
//   float x[8] = {...}; int64_t shape[] = {2, 4};
//   auto outs = (*module)->call("f", {{DType::F32, shape, x}});
//
// The module goes through the rlx-to-llvm pipeline (with the C interface),
// then MLIR's ExecutionEngine JITs it with LLVM -O3 for the host CPU.
// Every input is checked against the function signature before anything runs.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_RUNTIME_RUNTIME_H
#define RLXAD_RUNTIME_RUNTIME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rlx::runtime {

/// The values of the C API's RlxDType. BF16 elements are the upper 16 bits
/// of an f32 (what numpy holds as uint16).
enum class DType : int {
  F32 = 0,
  F64 = 1,
  I32 = 2,
  I64 = 3,
  F16 = 4,
  BF16 = 5
};

/// Bytes per element.
size_t dtypeSize(DType dtype);
/// "f32", "f64", "i32", "i64", "f16", "bf16".
const char *dtypeName(DType dtype);

/// A borrowed, dense, row-major input tensor.
struct TensorView {
  DType dtype;
  llvm::ArrayRef<int64_t> shape;
  const void *data;
};

/// An owned, dense, row-major result tensor.
struct Tensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// Owns the buffer `data` points into (the JIT's malloc'd allocation).
  std::shared_ptr<void> storage;
  void *data = nullptr;

  int64_t numElements() const;
  size_t numBytes() const { return numElements() * dtypeSize(dtype); }
};

/// The element type and shape of one argument or result (-1 = dynamic).
struct TensorType {
  DType dtype;
  std::vector<int64_t> shape;
  std::string str() const; // e.g. "tensor<?x4xf32>"
};

/// A public function of the module. `supported` is false (with `why`) when
/// its signature has something other than ranked f32/f64/i32/i64/f16/bf16
/// tensors.
struct FunctionSignature {
  std::string name;
  /// The MLIR function type, e.g. "(tensor<?x4xf32>) -> tensor<?x4xf32>".
  std::string type;
  std::vector<TensorType> inputs, outputs;
  bool supported = true;
  std::string why;
};

/// The number of threads the parallel loops of compiled code run on
/// (OpenMP). The default is the environment's RLX_NUM_THREADS (read once,
/// at the first call), else the number of cores. Results do not depend on
/// it (no reduction is split).
void setNumThreads(int numThreads);
int getNumThreads();

class JitModule {
public:
  /// Parses, verifies, lowers (rlx-to-llvm with `pipelineOptions`, e.g.
  /// "cumsum-matrix-max-length=64") and JIT-compiles `source`. Diagnostics
  /// name `bufferName` (a file path, or "<string>") with line and column.
  static llvm::Expected<std::unique_ptr<JitModule>>
  compile(llvm::StringRef source, llvm::StringRef pipelineOptions = "",
          llvm::StringRef bufferName = "<string>");

  ~JitModule();
  JitModule(const JitModule &) = delete;
  JitModule &operator=(const JitModule &) = delete;

  const std::vector<FunctionSignature> &functions() const;
  const FunctionSignature *lookup(llvm::StringRef name) const;

  /// Caps the bytes that the compiled code of one call may hold at once
  /// (0, the default: no cap). An allocation over the cap, like one malloc
  /// cannot satisfy, fails the call with "rlx: cannot allocate N bytes ...".
  void setMemoryLimit(uint64_t bytes);
  uint64_t memoryLimit() const;

  /// Calls `name` after checking arity, dtypes, ranks and static dims. A
  /// failed run-time check or allocation fails the call with a message and
  /// frees everything the call had allocated.
  llvm::Expected<std::vector<Tensor>> call(llvm::StringRef name,
                                           llvm::ArrayRef<TensorView> inputs);

private:
  struct Impl;
  explicit JitModule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace rlx::runtime

#endif // RLXAD_RUNTIME_RUNTIME_H
