//===- CallGuard.h - the state of one call into JIT code --------*- C++ -*-===//
//
// JIT code never sees a NULL from malloc and never outlives a failed check:
// the runtime maps the JIT module's malloc/calloc/realloc/aligned_alloc/
// posix_memalign/free, puts and abort to the handlers of CallGuard.cpp. While
// a call runs, its CallGuard
//  - records every buffer the JIT code allocates (and frees), enforcing the
//    module's memory limit;
//  - turns a failed allocation or a failed run-time check (cf.assert: puts,
//    then abort) into a longjmp back to JitModule::call, with a message;
//  - frees, when the call fails, every buffer the call had allocated, so a
//    failed call leaks nothing.
// The parallel loops of compiled code run on OpenMP threads: the runtime
// maps the JIT module's __kmpc_fork_call too, and each thread of the team
// runs the region under the guard of the call that forked it. A thread in a
// parallel region cannot longjmp (the other threads still run, and the
// frames it would skip belong to libomp), so there an allocation over the
// memory limit is made and recorded, and the call fails when the region has
// joined (the overshoot is what one region's threads hold at once: tiles).
// What cannot be made at all there (out of memory, a size out of range, a
// failed check) ends the process with a message, as a failed malloc would.
// A free of a guarded buffer from any thread updates its guard (one
// process-wide map of guarded buffers, in shards with a lock each).
// The frames the longjmp skips are JIT code, which has no destructors.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_RUNTIME_CALLGUARD_H
#define RLX_LIB_RUNTIME_CALLGUARD_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace rlx::runtime {

class CallGuard {
public:
  /// Activates the guard on this thread for a call of `function`;
  /// `memoryLimit` caps the bytes the call's JIT code holds at once (0: no
  /// limit).
  CallGuard(llvm::StringRef function, uint64_t memoryLimit);
  /// Frees every buffer the call still owns (all of them after a failure;
  /// after a success, those not adopted as results) and deactivates it.
  ~CallGuard();
  CallGuard(const CallGuard &) = delete;
  CallGuard &operator=(const CallGuard &) = delete;

  /// Runs `fn(args)`; false if it failed (see message()). `fn` is the
  /// ExecutionEngine's packed wrapper.
  bool run(void (*fn)(void **), void **args);
  const std::string &message() const { return failure; }

  /// How to free a buffer that adopt() handed over: with freeAdopted().
  struct Disposal {
    size_t capacity = 0; // from the buffer cache when nonzero
    size_t alignment = 0;
  };
  /// Hands the buffer at `allocated` (a result's) over to the caller: the
  /// guard no longer frees it. None if the call did not allocate it.
  std::optional<Disposal> adopt(void *allocated);
  /// Frees a buffer adopt() handed over (back to the buffer cache, so that
  /// the next call's result reuses its pages).
  static void freeAdopted(void *ptr, Disposal how);

  /// The symbols the JIT module's calls to the C allocator, puts and abort
  /// resolve to.
  static llvm::orc::SymbolMap symbols(llvm::orc::MangleAndInterner interner);

  // The handlers behind symbols(), for the active guard of this thread.
  void *allocate(uint64_t size, uint64_t alignment, bool zero);
  void *reallocate(void *old, uint64_t size);
  /// Frees `ptr`, from any thread, forgetting it in the guard that owns it.
  static void release(void *ptr);
  /// Frees the large buffers kept for later calls (BufferCache.h).
  static void clearBufferCache();
  [[noreturn]] void fail(std::string message);
  /// Fails the call from outside a parallel region. Within one, records a
  /// `recoverable` failure for failIfDeferred() and returns, or else ends
  /// the process with the message.
  void error(std::string message, bool recoverable);

  /// Marks this thread as running a parallel region of `guard`'s call (null:
  /// of no call) for its lifetime.
  class ParallelScope {
  public:
    explicit ParallelScope(CallGuard *guard);
    ~ParallelScope();

  private:
    CallGuard *saved;
  };
  /// After a parallel region joined, on the forking thread: fails the call if
  /// a thread of the region went over the memory limit.
  void failIfDeferred();

  static CallGuard *active();

private:
  std::string function;
  uint64_t memoryLimit;
  /// Bytes the call's live buffers hold (any thread of the call updates it).
  std::atomic<uint64_t> inUse{0};
  /// Counts `bytes` more in use. Returns why that goes over the memory
  /// limit, or ""; over it, the bytes are counted only inside a parallel
  /// region, where the allocation goes ahead.
  std::string reserve(uint64_t bytes);
  /// Records the buffer `ptr` of `size` reserved bytes as this call's;
  /// `capacity` and `alignment` when it goes to the buffer cache on free.
  void track(void *ptr, uint64_t size, size_t capacity = 0,
             size_t alignment = 0);
  /// Forgets `ptr` (and uncounts its bytes) if this guard owns it.
  void forget(void *ptr);
  std::string describe(uint64_t size, const std::string &why) const;
  std::string failure;
  std::mutex deferredMutex;
  std::string deferred; // under deferredMutex
  std::jmp_buf jump;
  CallGuard *previous;
};

} // namespace rlx::runtime

#endif // RLX_LIB_RUNTIME_CALLGUARD_H
