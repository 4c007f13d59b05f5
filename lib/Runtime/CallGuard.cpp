//===- CallGuard.cpp - allocation tracking and failure of JIT calls -------===//
#include "CallGuard.h"
#include "BufferCache.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/Shared/ExecutorAddress.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <sys/mman.h>
#include <utility>

using namespace rlx::runtime;

static thread_local CallGuard *activeGuard = nullptr;
/// How many parallel regions of JIT code this thread is in (nested ones
/// count): there, a failure cannot longjmp.
static thread_local int parallelDepth = 0;
/// The message of the failed cf.assert whose abort comes next on this
/// thread (puts, then abort).
static thread_local std::string checkMessage;

/// Every guarded buffer, its guard and its size: a buffer may be freed on
/// another thread than the one that allocated it. The map is split in
/// shards by address, each with its own lock, so that the threads of a
/// parallel loop that allocates per row (attention's score rows) do not
/// queue on one mutex. Never destroyed (JIT code may run during exit).
namespace {
struct Owner {
  CallGuard *guard;
  uint64_t size;
  /// The bytes allocated and their alignment when the buffer goes back to
  /// the buffer cache on free (capacity 0: to free()).
  size_t capacity;
  size_t alignment;
};
struct Shard {
  std::mutex mutex;
  llvm::DenseMap<void *, Owner> owners;
};
} // namespace
static constexpr unsigned kShardBits = 6;
static Shard *shards() {
  static auto *all = new Shard[1u << kShardBits];
  return all;
}
static Shard &shardOf(void *ptr) {
  // Fibonacci hashing: the top bits of the product mix every address bit.
  uint64_t hash =
      uint64_t(reinterpret_cast<uintptr_t>(ptr)) * 0x9E3779B97F4A7C15ull;
  return shards()[hash >> (64 - kShardBits)];
}

/// Large buffers are mapped with transparent huge pages (as numpy does).
/// glibc serves a request above its mmap threshold (at most 32 MiB) with a
/// fresh mapping that free() unmaps, so every call that allocates such a
/// result page-faults all of it in again: 4 KiB at a time that cost ~12 us
/// per fault on the VMs this was measured on (a 64 MiB embedding gradient:
/// 16000 faults, ~190 ms for ~2 ms of work). With MADV_HUGEPAGE it is 32
/// faults. RLX_HUGE_PAGES=0 turns it off. Smaller requests are left to
/// glibc: once one such mapping is freed, its dynamic threshold serves
/// requests up to that size from the heap, whose pages later calls reuse;
/// advised huge, they were fresh 2 MiB pages that the kernel zeroed on
/// every call (0.9 ms of the 16 MiB layer-norm gradient's 3.1).
static constexpr size_t kHugePageBytes = size_t(2) << 20;
static constexpr size_t kHugePageMinBytes = size_t(32) << 20;
static bool hugePages() {
  static const bool on = [] {
    const char *env = std::getenv("RLX_HUGE_PAGES");
    return !env || std::strcmp(env, "0") != 0;
  }();
  return on;
}

std::string CallGuard::reserve(uint64_t bytes) {
  uint64_t before = inUse.fetch_add(bytes);
  if (!memoryLimit || (bytes <= memoryLimit && before <= memoryLimit - bytes))
    return "";
  std::string over = "memory limit " + std::to_string(memoryLimit) +
                     " bytes, " + std::to_string(before) + " in use";
  if (parallelDepth == 0)
    inUse.fetch_sub(bytes);
  return over;
}

void CallGuard::track(void *ptr, uint64_t size, size_t capacity,
                      size_t alignment) {
  Shard &shard = shardOf(ptr);
  std::lock_guard<std::mutex> lock(shard.mutex);
  shard.owners[ptr] = {this, size, capacity, alignment};
}

/// Frees a buffer that `owner` described: to the buffer cache if it came
/// from there.
static void dispose(void *ptr, const Owner &owner) {
  if (owner.capacity)
    buffer_cache::put(ptr, owner.capacity, owner.alignment);
  else
    std::free(ptr);
}

void CallGuard::forget(void *ptr) {
  Shard &shard = shardOf(ptr);
  std::lock_guard<std::mutex> lock(shard.mutex);
  auto it = shard.owners.find(ptr);
  if (it == shard.owners.end() || it->second.guard != this)
    return;
  inUse.fetch_sub(it->second.size);
  shard.owners.erase(it);
}

CallGuard *CallGuard::active() { return activeGuard; }

CallGuard::CallGuard(llvm::StringRef function, uint64_t memoryLimit)
    : function(function.str()), memoryLimit(memoryLimit),
      previous(activeGuard) {
  activeGuard = this;
}

CallGuard::~CallGuard() {
  for (unsigned i = 0; i < (1u << kShardBits); ++i) {
    Shard &shard = shards()[i];
    std::lock_guard<std::mutex> lock(shard.mutex);
    llvm::SmallVector<std::pair<void *, Owner>> mine;
    for (auto &[ptr, owner] : shard.owners)
      if (owner.guard == this)
        mine.push_back({ptr, owner});
    for (auto &[ptr, owner] : mine) {
      shard.owners.erase(ptr);
      dispose(ptr, owner);
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

std::optional<CallGuard::Disposal> CallGuard::adopt(void *allocated) {
  Shard &shard = shardOf(allocated);
  std::lock_guard<std::mutex> lock(shard.mutex);
  auto it = shard.owners.find(allocated);
  if (it == shard.owners.end() || it->second.guard != this)
    return std::nullopt;
  Disposal how{it->second.capacity, it->second.alignment};
  inUse.fetch_sub(it->second.size);
  shard.owners.erase(it);
  return how;
}

void CallGuard::freeAdopted(void *ptr, Disposal how) {
  dispose(ptr, {nullptr, 0, how.capacity, how.alignment});
}

void CallGuard::fail(std::string message) {
  failure = std::move(message);
  std::longjmp(jump, 1);
}

void CallGuard::error(std::string message, bool recoverable) {
  if (parallelDepth == 0)
    fail(std::move(message));
  if (!recoverable) {
    fprintf(stderr, "%s (in a parallel loop)\n", message.c_str());
    std::abort();
  }
  std::lock_guard<std::mutex> lock(deferredMutex);
  if (deferred.empty())
    deferred = std::move(message);
}

void CallGuard::failIfDeferred() {
  std::string message;
  {
    std::lock_guard<std::mutex> lock(deferredMutex);
    std::swap(message, deferred);
  }
  if (!message.empty())
    fail(std::move(message));
}

CallGuard::ParallelScope::ParallelScope(CallGuard *guard) : saved(activeGuard) {
  activeGuard = guard;
  ++parallelDepth;
}

CallGuard::ParallelScope::~ParallelScope() {
  --parallelDepth;
  activeGuard = saved;
}

std::string CallGuard::describe(uint64_t size, const std::string &why) const {
  return "rlx: cannot allocate " + std::to_string(size) +
         " bytes for function '" + function + "' (" + why + ")";
}

// The lock is never held across error(): fail() longjmps.
void *CallGuard::allocate(uint64_t size, uint64_t alignment, bool zero) {
  // A size with the sign bit set is a wrapped computation, never a request.
  if (size > uint64_t(INT64_MAX))
    error(describe(size, "size out of range"), /*recoverable=*/false);
  std::string over = reserve(size);
  if (!over.empty()) // returns only in a parallel region, counted
    error(describe(size, over), /*recoverable=*/true);
  void *ptr = nullptr;
  size_t bytes = size ? size : 1; // never hand NULL to JIT code
  bool huge = hugePages() && bytes >= kHugePageMinBytes;
  if (huge)
    alignment = std::max<uint64_t>(alignment, kHugePageBytes);
  // A large buffer comes from (and goes back to) the buffer cache, whose
  // blocks are a multiple of 64 KiB and 64-byte aligned or more.
  size_t capacity = buffer_cache::capacityFor(bytes);
  bool fresh = true;
  if (capacity) {
    alignment = std::max<uint64_t>(alignment, 64);
    ptr = buffer_cache::take(capacity, alignment);
    fresh = !ptr;
    if (!ptr && posix_memalign(&ptr, alignment, capacity) != 0)
      ptr = nullptr;
  } else if (alignment > alignof(std::max_align_t)) {
    if (posix_memalign(&ptr, alignment, bytes) != 0)
      ptr = nullptr;
  } else {
    ptr = std::malloc(bytes);
  }
  if (!ptr) {
    inUse.fetch_sub(size);
    error(describe(size, "out of memory"), /*recoverable=*/false);
  }
#ifdef MADV_HUGEPAGE
  // 2 MiB pages for the whole 2 MiB multiples of the buffer (a hint; the
  // kernel falls back to 4 KiB pages).
  if (huge && fresh)
    madvise(ptr, bytes & ~(kHugePageBytes - 1), MADV_HUGEPAGE);
#endif
  if (zero)
    std::memset(ptr, 0, bytes);
  track(ptr, size, capacity, capacity ? alignment : 0);
  return ptr;
}

void *CallGuard::reallocate(void *old, uint64_t size) {
  if (!old)
    return allocate(size, 0, false);
  if (size > uint64_t(INT64_MAX))
    error(describe(size, "size out of range"), /*recoverable=*/false);
  uint64_t oldSize = 0;
  {
    Shard &shard = shardOf(old);
    std::lock_guard<std::mutex> lock(shard.mutex);
    auto it = shard.owners.find(old);
    if (it != shard.owners.end() && it->second.guard == this)
      oldSize = it->second.size;
  }
  uint64_t growth = size > oldSize ? size - oldSize : 0;
  if (growth) {
    std::string over = reserve(growth);
    if (!over.empty()) {
      if (parallelDepth == 0)
        growth = 0; // not counted
      error(describe(size, over), /*recoverable=*/true);
    }
  }
  void *ptr = std::realloc(old, size ? size : 1);
  if (!ptr) { // `old` is still valid and still tracked: the guard frees it
    inUse.fetch_sub(growth);
    error(describe(size, "out of memory"), /*recoverable=*/false);
  }
  // The buffer now counts `size`: forget() uncounts the old size, and the
  // growth reserved above is part of `size`.
  forget(old);
  inUse.fetch_add(size - growth);
  track(ptr, size);
  return ptr;
}

void CallGuard::release(void *ptr) {
  if (!ptr)
    return;
  Owner owner{nullptr, 0, 0, 0};
  {
    Shard &shard = shardOf(ptr);
    std::lock_guard<std::mutex> lock(shard.mutex);
    auto it = shard.owners.find(ptr);
    if (it != shard.owners.end()) {
      owner = it->second;
      owner.guard->inUse.fetch_sub(owner.size);
      shard.owners.erase(it);
    }
  }
  dispose(ptr, owner);
}

void CallGuard::clearBufferCache() { buffer_cache::clear(); }

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
  checkMessage = message ? message : "";
  return 0;
}

static void rlxJitAbort() {
  std::string message = std::exchange(checkMessage, "");
  if (message.empty())
    message = "rlx: the compiled code aborted";
  if (CallGuard *g = CallGuard::active())
    g->error(message, /*recoverable=*/false);
  fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

//===----------------------------------------------------------------------===//
// Parallel regions. JIT code forks with libomp's
//   __kmpc_fork_call(loc, argc, microtask, arg0, ..., arg<argc-1>),
// and every thread of the team runs microtask(&gtid, &btid, args...). The
// runtime's __kmpc_fork_call forks runRegion instead, which runs the
// microtask under the guard of the forking call, so the allocations of
// every thread are checked and counted (OpenMP-lowered regions pass their
// captures as one struct: argc is 1).
//===----------------------------------------------------------------------===//

namespace {
constexpr int kMaxRegionArgs = 16;
using Microtask = void (*)(int32_t *, int32_t *, ...);
using ForkCall = void (*)(void *, int32_t, Microtask, ...);

template <size_t> using Arg = void *;

struct Region {
  CallGuard *guard;
  void *microtask;
  int32_t argc;
  void *args[kMaxRegionArgs];
};
} // namespace

/// libomp's __kmpc_fork_call, or null (libomp not loaded: the runtime loads
/// it, RTLD_GLOBAL, before it compiles the first module).
static ForkCall libompForkCall() {
  static ForkCall fn =
      reinterpret_cast<ForkCall>(dlsym(RTLD_DEFAULT, "__kmpc_fork_call"));
  return fn;
}

template <size_t... I>
static void invokeMicrotask(const Region &r, int32_t *gtid, int32_t *btid,
                            std::index_sequence<I...>) {
  using Fn = void (*)(int32_t *, int32_t *, Arg<I>...);
  reinterpret_cast<Fn>(r.microtask)(gtid, btid, r.args[I]...);
}

template <size_t... N>
static void invokeMicrotask(const Region &r, int32_t *gtid, int32_t *btid,
                            std::index_sequence<N...>, int32_t argc) {
  ((argc == int32_t(N)
        ? invokeMicrotask(r, gtid, btid, std::make_index_sequence<N>())
        : void()),
   ...);
}

static void runRegion(int32_t *gtid, int32_t *btid, Region *region) {
  CallGuard::ParallelScope scope(region->guard);
  invokeMicrotask(*region, gtid, btid,
                  std::make_index_sequence<kMaxRegionArgs + 1>(), region->argc);
}

static void rlxJitForkCall(void *loc, int32_t argc, Microtask microtask, ...) {
  CallGuard *g = CallGuard::active();
  if (argc < 0 || argc > kMaxRegionArgs) {
    std::string message =
        "rlx: a parallel region with " + std::to_string(argc) + " arguments";
    if (g)
      g->error(message, /*recoverable=*/false);
    fprintf(stderr, "%s\n", message.c_str());
    std::abort();
  }
  Region region{g, reinterpret_cast<void *>(microtask), argc, {}};
  va_list ap;
  va_start(ap, microtask);
  for (int32_t i = 0; i < argc; ++i)
    region.args[i] = va_arg(ap, void *);
  va_end(ap);
  libompForkCall()(loc, 1, reinterpret_cast<Microtask>(&runRegion), &region);
  // Every thread has joined: a failure deferred by one of them fails the
  // call here, unless this thread is itself in a region (nested).
  if (g && parallelDepth == 0)
    g->failIfDeferred();
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
  if (libompForkCall())
    add("__kmpc_fork_call", &rlxJitForkCall);
  return map;
}
