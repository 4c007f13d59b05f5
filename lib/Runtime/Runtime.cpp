//===- Runtime.cpp - compile rlx modules and call them on tensors ---------===//
//
// Calling convention: every public function gets a `_mlir_ciface_<name>`
// wrapper (rlx-emit-c-interface) taking pointers to memref descriptors
// { allocated, aligned, offset, sizes[rank], strides[rank] }, with a leading
// pointer to the result descriptor (or a struct of them) when it has results.
// We call it through the ExecutionEngine's packed wrapper.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Runtime/Runtime.h"

#include "CallGuard.h"

#include "RlxAD/InitRlx.h"
#include "RlxAD/Transforms/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#ifdef RLX_SANITIZE_JIT
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"
#endif

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <thread>

using namespace rlx::runtime;
using llvm::Expected;
using llvm::StringRef;

#ifndef RLX_C_RUNNER_UTILS
#define RLX_C_RUNNER_UTILS "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"
#endif

size_t rlx::runtime::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  }
  return 4;
}

const char *rlx::runtime::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  }
  return "?";
}

int64_t Tensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string TensorType::str() const {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s + dtypeName(dtype) + ">";
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The runtime's view of an MLIR type, or a reason it cannot pass it.
static std::optional<TensorType> toTensorType(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor)
    return std::nullopt;
  mlir::Type e = tensor.getElementType();
  DType dtype;
  if (e.isF32())
    dtype = DType::F32;
  else if (e.isF64())
    dtype = DType::F64;
  else if (e.isSignlessInteger(32))
    dtype = DType::I32;
  else if (e.isSignlessInteger(64))
    dtype = DType::I64;
  else if (e.isF16())
    dtype = DType::F16;
  else if (e.isBF16())
    dtype = DType::BF16;
  else
    return std::nullopt;
  TensorType t{dtype, {}};
  for (int64_t d : tensor.getShape())
    t.shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
  return t;
}

static FunctionSignature signatureOf(mlir::func::FuncOp func) {
  FunctionSignature sig;
  sig.name = func.getSymName().str();
  llvm::raw_string_ostream(sig.type) << func.getFunctionType();
  auto collect = [&](mlir::TypeRange types, std::vector<TensorType> &out,
                     const char *what) {
    for (auto [i, type] : llvm::enumerate(types)) {
      std::optional<TensorType> t = toTensorType(type);
      if (!t) {
        if (sig.supported) {
          llvm::raw_string_ostream os(sig.why);
          os << what << " #" << i << " has type " << type
             << "; the runtime passes ranked tensors of f32, f64, i32, i64, "
                "f16 or bf16";
        }
        sig.supported = false;
        continue;
      }
      out.push_back(*t);
    }
  };
  collect(func.getArgumentTypes(), sig.inputs, "argument");
  collect(func.getResultTypes(), sig.outputs, "result");
  return sig;
}

/// In a sanitizer build (RLX_SANITIZE), the JIT-ed code is instrumented with
/// AddressSanitizer too, so that an out-of-bounds access of compiled code is
/// reported like one of the runtime's. Elsewhere, nothing.
static void instrumentForSanitizers(llvm::Module &module) {
#ifdef RLX_SANITIZE_JIT
  for (llvm::Function &f : module)
    if (!f.isDeclaration())
      f.addFnAttr(llvm::Attribute::SanitizeAddress);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  // No GC-able globals metadata: the JIT linker has no __start_/__stop_
  // section symbols for it.
  mpm.addPass(llvm::AddressSanitizerPass(llvm::AddressSanitizerOptions(),
                                         /*UseGlobalGC=*/false));
  mpm.run(module, mam);
#else
  (void)module;
#endif
}

//===----------------------------------------------------------------------===//
// Threads: the parallel loops of compiled code are OpenMP loops (libomp,
// loaded with the first module). Their thread count is libomp's for the
// calling thread; each call sets it when it differs from the requested one.
//===----------------------------------------------------------------------===//

/// Read once: hardware_concurrency() opens /sys/devices/system/cpu/online
/// each time, three system calls that every call of a module made while no
/// thread count had been set.
static int defaultNumThreads() {
  static const int n = [] {
    if (const char *env = std::getenv("RLX_NUM_THREADS")) {
      int n = std::atoi(env);
      if (n > 0)
        return n;
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return n;
}

static std::atomic<int> requestedThreads{0};

void rlx::runtime::setNumThreads(int numThreads) {
  requestedThreads = numThreads > 0 ? numThreads : defaultNumThreads();
}

int rlx::runtime::getNumThreads() {
  int n = requestedThreads;
  return n > 0 ? n : defaultNumThreads();
}

/// libomp's omp_set_num_threads, or null when libomp is not loadable.
static void (*ompSetNumThreads())(int) {
  static void (*fn)(int) = [] {
    void *handle = dlopen(RLX_OMP_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
    if (!handle)
      return static_cast<void (*)(int)>(nullptr);
    return reinterpret_cast<void (*)(int)>(
        dlsym(handle, "omp_set_num_threads"));
  }();
  return fn;
}

/// Sets the calling thread's OpenMP thread count before a call.
static void applyNumThreads() {
  static thread_local int applied = 0;
  int n = rlx::runtime::getNumThreads();
  if (n == applied)
    return;
  if (auto fn = ompSetNumThreads())
    fn(n);
  applied = n;
}

struct JitModule::Impl {
  std::unique_ptr<mlir::ExecutionEngine> engine;
  std::vector<FunctionSignature> functions;
  /// functions[i]'s packed entry point (null: see entryErrors[i]), looked up
  /// once when the module is made: an ORC lookup per call cost a thread
  /// wake-up (a futex) and a string map search on every call.
  std::vector<void (*)(void **)> entries;
  std::vector<std::string> entryErrors;
  uint64_t memoryLimit = 0;
};

JitModule::JitModule(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
// The buffers its calls freed are kept for later calls until a module goes.
JitModule::~JitModule() { CallGuard::clearBufferCache(); }

const std::vector<FunctionSignature> &JitModule::functions() const {
  return impl->functions;
}

void JitModule::setMemoryLimit(uint64_t bytes) { impl->memoryLimit = bytes; }

uint64_t JitModule::memoryLimit() const { return impl->memoryLimit; }

const FunctionSignature *JitModule::lookup(StringRef name) const {
  for (const FunctionSignature &f : impl->functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

Expected<std::unique_ptr<JitModule>>
JitModule::compile(StringRef source, StringRef pipelineOptions,
                   StringRef bufferName) {
  static std::once_flag initTargets;
  std::call_once(initTargets, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });

  mlir::DialectRegistry registry;
  mlir::rlx::registerRlxDialect(registry);
  mlir::rlx::registerRlxPipelineDependencies(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading(); // the machine is small; avoid thread churn

  // Collect every diagnostic, formatted with source locations.
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagStream);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr,
                                            mlir::ParserConfig(&context));
  if (!module)
    return makeError("failed to parse the module:\n" + diagnostics);

  // Functions marked rlx.grad get their @<name>_grad first, so that the
  // gradient functions are callable like the others.
  mlir::PassManager gradPm(&context);
  gradPm.addPass(mlir::rlx::createRlxGrad());
  if (mlir::failed(gradPm.run(*module)))
    return makeError("failed to differentiate the module (rlx-grad):\n" +
                     diagnostics);

  auto impl = std::make_unique<Impl>();
  for (auto func : module->getOps<mlir::func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      impl->functions.push_back(signatureOf(func));

  std::unique_ptr<mlir::rlx::RlxPipelineOptions> options =
      mlir::rlx::RlxPipelineOptions::createFromString(pipelineOptions);
  if (!options)
    return makeError("invalid rlx-to-llvm pipeline options '" +
                     pipelineOptions + "'");
  options->emitCInterface = true;
  // Dynamic dims the IR relates are checked per call; a failed check fails
  // the call (CallGuard).
  options->checkShapes = true;
  mlir::PassManager pm(&context);
  mlir::rlx::buildRlxToLLVMPipeline(pm, *options);
  if (mlir::failed(pm.run(*module)))
    return makeError("failed to lower the module to LLVM:\n" + diagnostics);

  mlir::registerBuiltinDialectTranslation(context);
  mlir::registerLLVMDialectTranslation(context);
  // The optimizer needs the host's TargetMachine: without it LLVM's cost
  // models see no vector registers and nothing gets vectorised.
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return makeError("cannot detect the host CPU: " +
                     llvm::toString(machineBuilder.takeError()));
  machineBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine)
    return makeError("cannot create a target machine: " +
                     llvm::toString(targetMachine.takeError()));
  auto transformer = mlir::makeOptimizingTransformer(
      /*optLevel=*/3, /*sizeLevel=*/0, targetMachine->get());
  llvm::SmallVector<StringRef, 2> libs;
  if (llvm::sys::fs::exists(RLX_C_RUNNER_UTILS))
    libs.push_back(RLX_C_RUNNER_UTILS); // memrefCopy for strided copies
  if (ompSetNumThreads())
    libs.push_back(RLX_OMP_LIBRARY); // the OpenMP runtime of the threads
  mlir::ExecutionEngineOptions engineOptions;
  auto optimizeAndInstrument = [&transformer](llvm::Module *m) -> llvm::Error {
    if (llvm::Error e = transformer(m))
      return e;
    instrumentForSanitizers(*m);
    return llvm::Error::success();
  };
  engineOptions.transformer = optimizeAndInstrument;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.sharedLibPaths = libs;
  engineOptions.enableGDBNotificationListener = false;
  // RLX_PERF_JIT=1 describes the JIT code to perf (jit-<pid>.dump for `perf
  // record -k 1` + `perf inject --jit`), so that profiles of compiled
  // kernels show instructions instead of anonymous addresses.
  const char *perfJit = std::getenv("RLX_PERF_JIT");
  engineOptions.enablePerfNotificationListener =
      perfJit && StringRef(perfJit) != "0";
  auto engine = mlir::ExecutionEngine::create(*module, engineOptions,
                                              std::move(*targetMachine));
  if (!engine)
    return makeError("JIT compilation failed: " +
                     llvm::toString(engine.takeError()) + "\n" + diagnostics);
  impl->engine = std::move(*engine);
  // The module's allocations, frees and failed checks go to the CallGuard
  // of the running call (CallGuard.h).
  impl->engine->registerSymbols(CallGuard::symbols);
  for (const FunctionSignature &f : impl->functions) {
    void (*entry)(void **) = nullptr;
    std::string error;
    if (f.supported) {
      auto fn = impl->engine->lookupPacked("_mlir_ciface_" + f.name);
      if (fn)
        entry = *fn;
      else
        error = llvm::toString(fn.takeError());
    }
    impl->entries.push_back(entry);
    impl->entryErrors.push_back(std::move(error));
  }
  return std::unique_ptr<JitModule>(new JitModule(std::move(impl)));
}

namespace {
/// A memref descriptor laid out as 64-bit words.
struct Descriptor {
  std::vector<int64_t> words;

  static size_t wordsFor(size_t rank) { return 3 + 2 * rank; }

  static Descriptor forInput(const TensorView &view) {
    size_t rank = view.shape.size();
    Descriptor d;
    d.words.assign(wordsFor(rank), 0);
    auto ptr = reinterpret_cast<int64_t>(view.data);
    d.words[0] = d.words[1] = ptr;
    int64_t stride = 1;
    for (size_t i = rank; i-- > 0;) {
      d.words[3 + i] = view.shape[i];
      d.words[3 + rank + i] = stride;
      stride *= view.shape[i];
    }
    return d;
  }
};
} // namespace

/// Takes ownership of the buffer a result descriptor points to (when the
/// call allocated it), copying it into a dense row-major tensor if its
/// strides are not the identity ones or the call did not allocate it.
/// `owners` makes results that share an allocation share its ownership.
static Expected<Tensor>
adoptResult(const int64_t *words, const TensorType &type, CallGuard &guard,
            llvm::DenseMap<void *, std::shared_ptr<void>> &owners) {
  size_t rank = type.shape.size();
  Tensor t;
  t.dtype = type.dtype;
  void *allocated = reinterpret_cast<void *>(words[0]);
  char *aligned = reinterpret_cast<char *>(words[1]);
  int64_t offset = words[2];
  size_t elem = dtypeSize(type.dtype);
  t.shape.assign(words + 3, words + 3 + rank);
  const int64_t *strides = words + 3 + rank;

  bool dense = true;
  int64_t expected = 1;
  for (size_t i = rank; i-- > 0;) {
    if (t.shape[i] != 1 && strides[i] != expected)
      dense = false;
    expected *= t.shape[i];
  }
  auto found = owners.find(allocated);
  if (found == owners.end())
    if (std::optional<CallGuard::Disposal> how = guard.adopt(allocated))
      found = owners
                  .try_emplace(allocated, std::shared_ptr<void>(
                                              allocated,
                                              [how = *how](void *p) {
                                                CallGuard::freeAdopted(p, how);
                                              }))
                  .first;
  char *base = aligned + offset * elem;
  if (dense && found != owners.end()) {
    t.storage = found->second;
    t.data = base;
    return t;
  }
  // Strided, or not the call's to give: copy into a fresh dense buffer.
  int64_t n = t.numElements();
  void *dense_buf = std::malloc(std::max<size_t>(1, n * elem));
  if (!dense_buf)
    return makeError("rlx: cannot allocate " + llvm::Twine(n * elem) +
                     " bytes for a result");
  std::vector<int64_t> index(rank, 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d)
      src += index[d] * strides[d];
    std::memcpy(static_cast<char *>(dense_buf) + flat * elem, base + src * elem,
                elem);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < t.shape[d])
        break;
      index[d] = 0;
    }
  }
  t.storage = std::shared_ptr<void>(dense_buf, [](void *p) { std::free(p); });
  t.data = dense_buf;
  return t;
}

Expected<std::vector<Tensor>>
JitModule::call(StringRef name, llvm::ArrayRef<TensorView> inputs) {
  const FunctionSignature *sig = lookup(name);
  if (!sig) {
    std::string known;
    for (const FunctionSignature &f : impl->functions)
      known += (known.empty() ? "" : ", ") + f.name;
    return makeError("no public function '" + name +
                     "' in the module (has: " + known + ")");
  }
  if (!sig->supported)
    return makeError("function '" + name + "': " + sig->why);
  if (inputs.size() != sig->inputs.size())
    return makeError("function '" + name + "' takes " +
                     llvm::Twine(sig->inputs.size()) + " arguments, got " +
                     llvm::Twine(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorView &view = inputs[i];
    const TensorType &want = sig->inputs[i];
    auto got = [&] {
      TensorType t{view.dtype,
                   std::vector<int64_t>(view.shape.begin(), view.shape.end())};
      return t.str();
    };
    if (view.dtype != want.dtype || view.shape.size() != want.shape.size())
      return makeError("function '" + name + "' argument #" + llvm::Twine(i) +
                       ": expected " + want.str() + ", got " + got());
    for (size_t d = 0; d < want.shape.size(); ++d) {
      if (view.shape[d] < 0 ||
          (want.shape[d] >= 0 && view.shape[d] != want.shape[d]))
        return makeError("function '" + name + "' argument #" + llvm::Twine(i) +
                         ": expected " + want.str() + ", got " + got() +
                         " (dim " + llvm::Twine(d) + ")");
    }
    std::optional<int64_t> bytes = int64_t(dtypeSize(view.dtype));
    for (int64_t d : view.shape)
      if (bytes)
        bytes = llvm::checkedMul(*bytes, d);
    if (!bytes)
      return makeError("function '" + name + "' argument #" + llvm::Twine(i) +
                       ": the byte size of " + got() +
                       " does not fit in 64 bits");
    if (!view.data && !view.shape.empty()) {
      bool empty = false;
      for (int64_t d : view.shape)
        empty |= d == 0;
      if (!empty)
        return makeError("function '" + name + "' argument #" + llvm::Twine(i) +
                         " has no data");
    }
  }

  // Result descriptors are laid out back to back, as in an LLVM struct of
  // descriptors (all fields are 8-byte words).
  std::vector<int64_t> resultWords;
  std::vector<size_t> resultOffsets;
  for (const TensorType &t : sig->outputs) {
    resultOffsets.push_back(resultWords.size());
    resultWords.resize(resultWords.size() +
                       Descriptor::wordsFor(t.shape.size()));
  }
  std::vector<Descriptor> descriptors;
  descriptors.reserve(inputs.size());
  for (const TensorView &view : inputs)
    descriptors.push_back(Descriptor::forInput(view));

  // Packed calling convention: args[i] points to the i-th argument value,
  // here always a pointer.
  std::vector<void *> pointers;
  if (!sig->outputs.empty())
    pointers.push_back(resultWords.data());
  for (Descriptor &d : descriptors)
    pointers.push_back(d.words.data());
  std::vector<void *> args;
  for (void *&p : pointers)
    args.push_back(&p);

  size_t index = sig - impl->functions.data();
  void (*fn)(void **) = impl->entries[index];
  if (!fn)
    return makeError("function '" + name +
                     "' was not compiled: " + impl->entryErrors[index]);
  applyNumThreads();
  // Buffers of a failed call, and those of a successful one that are not
  // results, are freed when `guard` goes out of scope.
  CallGuard guard(name, impl->memoryLimit);
  if (!guard.run(fn, args.data()))
    return makeError("function '" + name + "': " + guard.message());

  std::vector<Tensor> results;
  llvm::DenseMap<void *, std::shared_ptr<void>> owners;
  for (size_t i = 0; i < sig->outputs.size(); ++i) {
    Expected<Tensor> t = adoptResult(resultWords.data() + resultOffsets[i],
                                     sig->outputs[i], guard, owners);
    if (!t)
      return t.takeError();
    results.push_back(std::move(*t));
  }
  return results;
}
