//===- BufferCache.h - freed large JIT buffers, kept for the next call ---===//
//
// glibc maps a request above its mmap threshold afresh and unmaps it on
// free, and trims the top of its heap once more than its trim threshold is
// free there; both thresholds start at 128 KiB and only grow with the
// largest mapping freed so far. A module whose temporaries are a few MB
// each then page-faults all of them in again on every call: a stride-2
// convolution's input gradient (8x64x56x56) faulted 12 MB per call, 46 ms
// of page faults for 3.9 ms of work, until a larger buffer happened to be
// freed in the process first (as the bench's bandwidth probe does).
//
// The runtime keeps the buffers of 128 KiB or more that the JIT code frees
// and hands them out again for requests of the same rounded size, so a
// call's temporaries reuse the pages the previous call faulted in. The
// cache holds at most RLX_BUFFER_CACHE_MB MiB (default 1024; 0 turns it
// off) and is emptied when a module is destroyed.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_RUNTIME_BUFFERCACHE_H
#define RLX_LIB_RUNTIME_BUFFERCACHE_H

#include <cstddef>

namespace rlx::runtime::buffer_cache {

/// The bytes a request of `bytes` is allocated with when cacheable (a
/// multiple of 64 KiB), or 0 when it is too small to cache or the cache is
/// off.
size_t capacityFor(size_t bytes);

/// A cached buffer of exactly `capacity` bytes aligned to `alignment` or
/// more (its contents are stale), or null.
void *take(size_t capacity, size_t alignment);

/// Keeps `ptr` (`capacity` bytes, aligned to `alignment`) for a later
/// take(), or frees it when the cache is full.
void put(void *ptr, size_t capacity, size_t alignment);

/// Frees every cached buffer.
void clear();

} // namespace rlx::runtime::buffer_cache

#endif // RLX_LIB_RUNTIME_BUFFERCACHE_H
