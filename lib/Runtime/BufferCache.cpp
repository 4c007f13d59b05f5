//===- BufferCache.cpp - freed large JIT buffers, kept for the next call -===//
#include "BufferCache.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace rlx::runtime;

namespace {
struct Block {
  void *ptr;
  size_t alignment;
};
struct Cache {
  std::mutex mutex;
  std::multimap<size_t, Block> blocks; // by capacity, under mutex
  size_t bytes = 0;                    // under mutex
};
} // namespace

static constexpr size_t kMinBytes = size_t(128) << 10;
static constexpr size_t kGranule = size_t(64) << 10;

/// Never destroyed: JIT code may free during exit.
static Cache &cache() {
  static auto *c = new Cache;
  return *c;
}

static size_t limitBytes() {
  static const size_t limit = [] {
    const char *env = std::getenv("RLX_BUFFER_CACHE_MB");
    if (!env || !*env)
      return size_t(1024) << 20;
    char *end = nullptr;
    unsigned long long mb = std::strtoull(env, &end, 10);
    if (*end || mb > (uint64_t(1) << 30))
      return size_t(1024) << 20; // not a number of MiB: the default
    return size_t(mb) << 20;
  }();
  return limit;
}

size_t buffer_cache::capacityFor(size_t bytes) {
  if (bytes < kMinBytes || limitBytes() == 0 || bytes > SIZE_MAX - kGranule)
    return 0;
  return (bytes + kGranule - 1) / kGranule * kGranule;
}

void *buffer_cache::take(size_t capacity, size_t alignment) {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto [begin, end] = c.blocks.equal_range(capacity);
  for (auto it = begin; it != end; ++it) {
    if (it->second.alignment < alignment)
      continue;
    void *ptr = it->second.ptr;
    c.bytes -= capacity;
    c.blocks.erase(it);
    return ptr;
  }
  return nullptr;
}

void buffer_cache::put(void *ptr, size_t capacity, size_t alignment) {
  Cache &c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (capacity <= limitBytes() - c.bytes) {
      c.blocks.insert({capacity, {ptr, alignment}});
      c.bytes += capacity;
      return;
    }
  }
  std::free(ptr);
}

void buffer_cache::clear() {
  Cache &c = cache();
  std::multimap<size_t, Block> blocks;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    std::swap(blocks, c.blocks);
    c.bytes = 0;
  }
  for (auto &[capacity, block] : blocks)
    std::free(block.ptr);
}
