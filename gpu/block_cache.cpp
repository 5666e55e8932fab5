// BlockCache (gpu/block_cache.hpp): exact sizes, first kept first found.
#include "gpu/block_cache.hpp"

namespace weft::gpu {

void* BlockCache::take(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < kept_.size(); ++i) {
    if (kept_[i].second != bytes) continue;
    void* p = kept_[i].first;
    kept_.erase(kept_.begin() + ptrdiff_t(i));
    kept_bytes_ -= bytes;
    lent_.emplace(p, bytes);
    return p;
  }
  return nullptr;
}

void BlockCache::lend(void* p, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  lent_.emplace(p, bytes);
}

bool BlockCache::give_back(void* p) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = lent_.find(p);
  if (it == lent_.end()) return false;
  const size_t bytes = it->second;
  lent_.erase(it);
  if (kept_bytes_ + bytes > keep_bytes_) return false;
  kept_.emplace_back(p, bytes);
  kept_bytes_ += bytes;
  return true;
}

}  // namespace weft::gpu
