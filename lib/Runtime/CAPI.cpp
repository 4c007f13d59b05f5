//===- CAPI.cpp - C API of the rlx runtime --------------------------------===//
#include "rlx-c/Runtime.h"

#include "RlxAD/Runtime/Runtime.h"

#include <cstdlib>
#include <cstring>

using namespace rlx::runtime;

struct RlxModule {
  std::unique_ptr<JitModule> module;
};

static char *copyString(const std::string &s) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out)
    std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

static void setError(char **error, const std::string &message) {
  if (error)
    *error = copyString(message);
}

extern "C" RlxModule *rlxModuleCompile(const char *source, size_t length,
                                       const char *pipelineOptions,
                                       char **error) {
  return rlxModuleCompileNamed(source, length, nullptr, pipelineOptions, error);
}

extern "C" RlxModule *rlxModuleCompileNamed(const char *source, size_t length,
                                            const char *sourceName,
                                            const char *pipelineOptions,
                                            char **error) {
  if (error)
    *error = nullptr;
  if (!source) {
    setError(error, "rlxModuleCompile: source is NULL");
    return nullptr;
  }
  auto module = JitModule::compile(llvm::StringRef(source, length),
                                   pipelineOptions ? pipelineOptions : "",
                                   sourceName ? sourceName : "<string>");
  if (!module) {
    setError(error, llvm::toString(module.takeError()));
    return nullptr;
  }
  return new RlxModule{std::move(*module)};
}

extern "C" void rlxModuleDestroy(RlxModule *module) { delete module; }

extern "C" void rlxModuleSetMemoryLimit(RlxModule *module, uint64_t bytes) {
  if (module)
    module->module->setMemoryLimit(bytes);
}

extern "C" size_t rlxModuleNumFunctions(const RlxModule *module) {
  return module ? module->module->functions().size() : 0;
}

extern "C" const char *rlxModuleFunctionName(const RlxModule *module,
                                             size_t index) {
  if (!module || index >= module->module->functions().size())
    return nullptr;
  return module->module->functions()[index].name.c_str();
}

extern "C" const char *rlxModuleFunctionType(const RlxModule *module,
                                             size_t index) {
  if (!module || index >= module->module->functions().size())
    return nullptr;
  return module->module->functions()[index].type.c_str();
}

extern "C" int rlxModuleCall(RlxModule *module, const char *function,
                             const RlxTensor *inputs, size_t numInputs,
                             RlxTensor **outputs, size_t *numOutputs,
                             char **error) {
  if (error)
    *error = nullptr;
  if (!module || !function || !outputs || !numOutputs ||
      (numInputs && !inputs)) {
    setError(error, "rlxModuleCall: NULL module, function name, inputs or "
                    "output pointers");
    return 1;
  }
  *outputs = nullptr;
  *numOutputs = 0;
  std::vector<TensorView> views;
  for (size_t i = 0; i < numInputs; ++i) {
    const RlxTensor &t = inputs[i];
    if (t.dtype < RLX_F32 || t.dtype > RLX_BF16 || t.rank < 0 ||
        (t.rank > 0 && !t.shape)) {
      setError(error, "rlxModuleCall: input #" + std::to_string(i) +
                          " has an invalid dtype, rank or shape pointer");
      return 1;
    }
    views.push_back({static_cast<DType>(t.dtype),
                     llvm::ArrayRef<int64_t>(t.shape, t.rank), t.data});
  }
  auto results = module->module->call(function, views);
  if (!results) {
    setError(error, llvm::toString(results.takeError()));
    return 1;
  }
  size_t n = results->size();
  auto *out =
      static_cast<RlxTensor *>(std::calloc(n ? n : 1, sizeof(RlxTensor)));
  if (!out) {
    setError(error, "rlx: cannot allocate the output array");
    return 1;
  }
  for (size_t i = 0; i < n; ++i) {
    Tensor &r = (*results)[i];
    out[i].dtype = static_cast<RlxDType>(r.dtype);
    out[i].rank = r.shape.size();
    out[i].shape = static_cast<int64_t *>(
        std::malloc(std::max<size_t>(1, r.shape.size()) * sizeof(int64_t)));
    if (!out[i].shape) {
      rlxTensorsDestroy(out, i);
      setError(error, "rlx: cannot allocate the output shapes");
      return 1;
    }
    std::copy(r.shape.begin(), r.shape.end(), out[i].shape);
    // No copy: the caller holds a reference on the JIT's buffer.
    out[i].data = r.data;
    out[i].owner = new std::shared_ptr<void>(std::move(r.storage));
  }
  *outputs = out;
  *numOutputs = n;
  return 0;
}

extern "C" void rlxTensorsDestroy(RlxTensor *tensors, size_t count) {
  if (!tensors)
    return;
  for (size_t i = 0; i < count; ++i) {
    std::free(tensors[i].shape);
    delete static_cast<std::shared_ptr<void> *>(tensors[i].owner);
  }
  std::free(tensors);
}

extern "C" void rlxTensorRelease(RlxTensor *tensor) {
  if (!tensor)
    return;
  std::free(tensor->shape);
  delete static_cast<std::shared_ptr<void> *>(tensor->owner);
  tensor->shape = nullptr;
  tensor->owner = nullptr;
  tensor->data = nullptr;
}

extern "C" void rlxStringDestroy(char *string) { std::free(string); }

extern "C" void rlxSetNumThreads(int numThreads) {
  rlx::runtime::setNumThreads(numThreads);
}

extern "C" int rlxGetNumThreads(void) { return rlx::runtime::getNumThreads(); }
