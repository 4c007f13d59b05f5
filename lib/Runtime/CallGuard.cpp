//===- CallGuard.cpp - allocation tracking and failure of JIT calls -------===//
#include "CallGuard.h"

#include "llvm/ExecutionEngine/Orc/Shared/ExecutorAddress.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace rlx::runtime;

static thread_local CallGuard *activeGuard = nullptr;

/// Every guarded buffer and its guard: a buffer may be freed on another
/// thread than the one that allocated it. Never destroyed (JIT code may run
/// during exit).
static std::mutex &ownersMutex() {
  static auto *m = new std::mutex;
  return *m;
}
static llvm::DenseMap<void *, CallGuard *> &owners() {
  static auto *map = new llvm::DenseMap<void *, CallGuard *>;
  return *map;
}

void CallGuard::track(void *ptr, uint64_t size) {
  std::lock_guard<std::mutex> lock(ownersMutex());
  owners()[ptr] = this;
  buffers[ptr] = size;
  inUse += size;
}

uint64_t CallGuard::forget(void *ptr) {
  auto it = buffers.find(ptr);
  if (it == buffers.end())
    return 0;
  uint64_t size = it->second;
  inUse -= size;
  buffers.erase(it);
  owners().erase(ptr);
  return size;
}

CallGuard *CallGuard::active() { return activeGuard; }

CallGuard::CallGuard(llvm::StringRef function, uint64_t memoryLimit)
    : function(function.str()), memoryLimit(memoryLimit),
      previous(activeGuard) {
  activeGuard = this;
}

CallGuard::~CallGuard() {
  {
    std::lock_guard<std::mutex> lock(ownersMutex());
    for (auto &[ptr, size] : buffers) {
      owners().erase(ptr);
      std::free(ptr);
    }
  }
  activeGuard = previous;
}

bool CallGuard::run(void (*fn)(void **), void **args) {
  // Only JIT frames lie between this setjmp and the longjmp of fail().
  if (setjmp(jump) != 0)
    return false;
  fn(args);
  return true;
}

bool CallGuard::adopt(void *allocated) {
  std::lock_guard<std::mutex> lock(ownersMutex());
  if (!buffers.count(allocated))
    return false;
  forget(allocated);
  return true;
}

void CallGuard::fail(std::string message) {
  failure = std::move(message);
  std::longjmp(jump, 1);
}

void CallGuard::setCheckMessage(const char *message) {
  failure = message ? message : "";
}

void *CallGuard::allocate(uint64_t size, uint64_t alignment, bool zero) {
  auto cannot = [&](const char *why) {
    fail("rlx: cannot allocate " + std::to_string(size) +
         " bytes for function '" + function + "' (" + why + ")");
  };
  if (memoryLimit && (size > memoryLimit || inUse > memoryLimit - size))
    fail("rlx: cannot allocate " + std::to_string(size) +
         " bytes for function '" + function + "' (memory limit " +
         std::to_string(memoryLimit) + " bytes, " + std::to_string(inUse) +
         " in use)");
  // A size with the sign bit set is a wrapped computation, never a request.
  if (size > uint64_t(INT64_MAX))
    cannot("size out of range");
  void *ptr = nullptr;
  size_t bytes = size ? size : 1; // never hand NULL to JIT code
  if (alignment > alignof(std::max_align_t)) {
    if (posix_memalign(&ptr, alignment, bytes) != 0)
      ptr = nullptr;
  } else {
    ptr = std::malloc(bytes);
  }
  if (!ptr)
    cannot("out of memory");
  if (zero)
    std::memset(ptr, 0, bytes);
  track(ptr, size);
  return ptr;
}

void *CallGuard::reallocate(void *old, uint64_t size) {
  if (!old)
    return allocate(size, 0, false);
  uint64_t oldSize;
  {
    std::lock_guard<std::mutex> lock(ownersMutex());
    auto it = buffers.find(old);
    oldSize = it == buffers.end() ? 0 : it->second;
  }
  if (memoryLimit && size > oldSize &&
      (size - oldSize > memoryLimit || inUse > memoryLimit - (size - oldSize)))
    fail("rlx: cannot allocate " + std::to_string(size) +
         " bytes for function '" + function + "' (memory limit " +
         std::to_string(memoryLimit) + " bytes, " + std::to_string(inUse) +
         " in use)");
  void *ptr = size <= uint64_t(INT64_MAX) ? std::realloc(old, size ? size : 1)
                                          : nullptr;
  if (!ptr) // `old` is still valid and still tracked: the guard frees it
    fail("rlx: cannot allocate " + std::to_string(size) +
         " bytes for function '" + function + "' (out of memory)");
  {
    std::lock_guard<std::mutex> lock(ownersMutex());
    forget(old);
  }
  track(ptr, size);
  return ptr;
}

void CallGuard::release(void *ptr) {
  if (!ptr)
    return;
  {
    std::lock_guard<std::mutex> lock(ownersMutex());
    auto it = owners().find(ptr);
    if (it != owners().end())
      it->second->forget(ptr);
  }
  std::free(ptr);
}

//===----------------------------------------------------------------------===//
// The symbols of the JIT module. Outside a call (no active guard) they behave
// like the C library's, except that abort still aborts.
//===----------------------------------------------------------------------===//

/// An allocation outside a guard (an OpenMP worker thread): JIT code must
/// not see NULL, and this thread cannot unwind the call.
static void *checked(void *ptr, size_t size) {
  if (!ptr) {
    fprintf(stderr, "rlx: cannot allocate %zu bytes in a parallel loop\n",
            size);
    std::abort();
  }
  return ptr;
}

static void *rlxJitMalloc(size_t size) {
  if (CallGuard *g = CallGuard::active())
    return g->allocate(size, 0, false);
  return checked(std::malloc(size ? size : 1), size);
}

static void *rlxJitCalloc(size_t count, size_t size) {
  CallGuard *g = CallGuard::active();
  if (!g)
    return checked(std::calloc(count ? count : 1, size ? size : 1),
                   count * size);
  std::optional<uint64_t> bytes =
      llvm::checkedMulUnsigned<uint64_t>(count, size);
  return g->allocate(bytes ? *bytes : UINT64_MAX, 0, true);
}

static void *rlxJitRealloc(void *old, size_t size) {
  if (CallGuard *g = CallGuard::active())
    return g->reallocate(old, size);
  return checked(std::realloc(old, size ? size : 1), size);
}

static void *rlxJitAlignedAlloc(size_t alignment, size_t size) {
  if (CallGuard *g = CallGuard::active())
    return g->allocate(size, alignment, false);
  return checked(std::aligned_alloc(alignment, size ? size : alignment), size);
}

static int rlxJitPosixMemalign(void **out, size_t alignment, size_t size) {
  if (CallGuard *g = CallGuard::active()) {
    *out = g->allocate(size, alignment, false);
    return 0;
  }
  return posix_memalign(out, alignment, size);
}

static void rlxJitFree(void *ptr) { CallGuard::release(ptr); }

// A failed cf.assert prints its message with puts, then calls abort.
static int rlxJitPuts(const char *message) {
  if (CallGuard *g = CallGuard::active())
    g->setCheckMessage(message);
  return 0;
}

static void rlxJitAbort() {
  if (CallGuard *g = CallGuard::active())
    g->fail(g->message().empty() ? "rlx: the compiled code aborted"
                                 : g->message());
  std::abort();
}

llvm::orc::SymbolMap CallGuard::symbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap map;
  auto add = [&](const char *name, auto *fn) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                           llvm::JITSymbolFlags::Exported};
  };
  add("malloc", &rlxJitMalloc);
  add("calloc", &rlxJitCalloc);
  add("realloc", &rlxJitRealloc);
  add("aligned_alloc", &rlxJitAlignedAlloc);
  add("posix_memalign", &rlxJitPosixMemalign);
  add("free", &rlxJitFree);
  add("puts", &rlxJitPuts);
  add("abort", &rlxJitAbort);
  return map;
}
