//===- rlx-run.cpp - compile an rlx module and run it on .npy files -------===//
//
//   rlx-run FILE.mlir [--entry=NAME] [--input=A.npy]... [--output=OUT.npy]...
//           [--repeat=N] [--pipeline-options=STR] [--memory-limit=BYTES]
//
// Inputs bind to the entry function's arguments in order; results are written
// to the outputs in order (or summarised on stdout when no --output is given).
// With --repeat=N: one warm-up call, then N timed calls, and
// `time: median=<ms> ms min=<ms> ms runs=<N>` on stderr. --memory-limit caps
// what one call may allocate (a number of bytes, or with a K, M or G suffix).
// Inputs are read from regular files only.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Runtime/Npy.h"
#include "RlxAD/Runtime/Runtime.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace rlx::runtime;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<module.mlir>"),
                                      cl::Required);
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to call "
                                           "(default: the only one, "
                                           "or 'main')"),
                                  cl::init(""));
static cl::list<std::string> inputs("input", cl::desc("Argument .npy file"));
static cl::list<std::string> outputs("output", cl::desc("Result .npy file"));
static cl::opt<unsigned> repeat("repeat", cl::desc("Timed calls"), cl::init(0));
static cl::opt<std::string>
    pipelineOptions("pipeline-options",
                    cl::desc("rlx-to-llvm options, e.g. "
                             "'cumsum-matrix-max-length=64'"),
                    cl::init(""));

static cl::opt<std::string>
    memoryLimit("memory-limit",
                cl::desc("Bytes one call may allocate (e.g. 4096, 64M, 2G; "
                         "default: no limit)"),
                cl::init(""));

/// "123", "64K", "64M", "2G" (powers of 1024) to bytes.
static std::optional<uint64_t> parseBytes(llvm::StringRef text) {
  uint64_t scale = 1;
  if (text.consume_back("K") || text.consume_back("k"))
    scale = uint64_t(1) << 10;
  else if (text.consume_back("M"))
    scale = uint64_t(1) << 20;
  else if (text.consume_back("G"))
    scale = uint64_t(1) << 30;
  uint64_t value;
  if (text.getAsInteger(10, value) || value == 0 || value > UINT64_MAX / scale)
    return std::nullopt;
  return value * scale;
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "rlx-run: error: " << message << "\n";
  return 1;
}

static void summarise(const Tensor &t, size_t index) {
  llvm::outs() << "result #" << index << ": " << dtypeName(t.dtype) << "[";
  for (size_t i = 0; i < t.shape.size(); ++i)
    llvm::outs() << (i ? ", " : "") << t.shape[i];
  llvm::outs() << "] =";
  int64_t n = t.numElements(), shown = std::min<int64_t>(n, 16);
  for (int64_t i = 0; i < shown; ++i) {
    switch (t.dtype) {
    case DType::F32:
      llvm::outs() << llvm::format(" %g",
                                   static_cast<const float *>(t.data)[i]);
      break;
    case DType::F64:
      llvm::outs() << llvm::format(" %g",
                                   static_cast<const double *>(t.data)[i]);
      break;
    case DType::I32:
      llvm::outs() << " " << static_cast<const int32_t *>(t.data)[i];
      break;
    case DType::I64:
      llvm::outs() << " " << static_cast<const int64_t *>(t.data)[i];
      break;
    case DType::F16:
    case DType::BF16: {
      llvm::APFloat v(
          t.dtype == DType::F16 ? llvm::APFloat::IEEEhalf()
                                : llvm::APFloat::BFloat(),
          llvm::APInt(16, static_cast<const uint16_t *>(t.data)[i]));
      bool lost;
      v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      llvm::outs() << llvm::format(" %g", v.convertToDouble());
      break;
    }
    }
  }
  llvm::outs() << (n > shown ? " ..." : "") << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "rlx module runner\n");

  auto source = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!source)
    return fail("cannot read '" + inputFile +
                "': " + source.getError().message());
  std::optional<uint64_t> limit;
  if (!memoryLimit.empty() && !(limit = parseBytes(memoryLimit)))
    return fail("invalid --memory-limit '" + memoryLimit +
                "' (a positive number of bytes, optionally with K, M or G)");
  auto module = JitModule::compile((*source)->getBuffer(), pipelineOptions,
                                   inputFile == "-"
                                       ? llvm::StringRef("<stdin>")
                                       : llvm::StringRef(inputFile.getValue()));
  if (!module)
    return fail(llvm::toString(module.takeError()));
  if (limit)
    (*module)->setMemoryLimit(*limit);

  std::string name = entry;
  if (name.empty()) {
    const auto &fns = (*module)->functions();
    if (fns.size() == 1)
      name = fns.front().name;
    else if ((*module)->lookup("main"))
      name = "main";
    else
      return fail("the module has " + llvm::Twine(fns.size()) +
                  " public functions; choose one with --entry=NAME");
  }
  const FunctionSignature *sig = (*module)->lookup(name);
  if (!sig)
    return fail("no public function '" + name + "' in '" + inputFile + "'");

  std::vector<Tensor> args;
  std::vector<TensorView> views;
  for (const std::string &path : inputs) {
    auto t = readNpy(path);
    if (!t)
      return fail(llvm::toString(t.takeError()));
    args.push_back(std::move(*t));
  }
  for (const Tensor &t : args)
    views.push_back({t.dtype, t.shape, t.data});
  if (!outputs.empty() && outputs.size() != sig->outputs.size())
    return fail("function '" + name + "' has " +
                llvm::Twine(sig->outputs.size()) + " results, got " +
                llvm::Twine(outputs.size()) + " --output files");

  auto results = (*module)->call(name, views);
  if (!results)
    return fail(llvm::toString(results.takeError()));

  if (repeat > 0) {
    std::vector<double> ms;
    for (unsigned i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto again = (*module)->call(name, views);
      auto stop = std::chrono::steady_clock::now();
      if (!again)
        return fail(llvm::toString(again.takeError()));
      ms.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(ms.begin(), ms.end());
    double median = ms.size() % 2
                        ? ms[ms.size() / 2]
                        : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
    llvm::errs() << llvm::format("time: median=%.3f ms min=%.3f ms runs=%u\n",
                                 median, ms.front(), unsigned(repeat));
  }

  for (auto [i, t] : llvm::enumerate(*results)) {
    if (outputs.empty()) {
      summarise(t, i);
      continue;
    }
    if (llvm::Error e = writeNpy(outputs[i], t))
      return fail(llvm::toString(std::move(e)));
  }
  return 0;
}
