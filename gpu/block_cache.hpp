// Blocks of driver memory given back, kept for the next request of the same size: pinning host
// memory costs far more than the copies through it (cuMemHostAlloc of a few MiB takes
// milliseconds), cuMemFree waits for the whole device, and staging chunks, collectives' slots and
// device scratch are asked for in the same sizes again and again.
#pragma once
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace weft::gpu {

class BlockCache {
 public:
  explicit BlockCache(size_t keep_bytes) : keep_bytes_(keep_bytes) {}
  // A block of exactly `bytes` given back before, now lent again; null when none is kept.
  void* take(size_t bytes);
  // Records that `p`, just allocated with `bytes`, is lent.
  void lend(void* p, size_t bytes);
  // `p` comes back: true when kept for later, false when the caller frees it (the cache is full,
  // or `p` was never lent through it).
  bool give_back(void* p);

 private:
  std::mutex mutex_;
  std::unordered_map<void*, size_t> lent_;
  std::vector<std::pair<void*, size_t>> kept_;
  size_t kept_bytes_ = 0;
  size_t keep_bytes_;
};

}  // namespace weft::gpu
