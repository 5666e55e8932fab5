// Mapping other processes' device allocations once (gpu/ipc_cache.hpp).
#include "gpu/ipc_cache.hpp"

namespace weft::gpu {

void IpcCache::drop(DeviceMemory& memory, size_t i) {
  memory.close_exported(entries_[i].here);
  entries_[i] = entries_.back();
  entries_.pop_back();
}

void* IpcCache::map(DeviceMemory& memory, int owner, const ExportedMemory& m, std::string* why) {
  ++clock_;
  for (size_t i = 0; i < entries_.size();) {
    Entry& e = entries_[i];
    const bool overlaps = e.owner == owner && e.base < m.base + m.size && m.base < e.base + e.size;
    if (!overlaps) {
      ++i;
    } else if (e.base == m.base && e.size == m.size && e.buffer_id == m.buffer_id) {
      e.last_use = clock_;
      return e.here;
    } else {
      drop(memory, i);  // the owner freed that allocation; its addresses hold another now
    }
  }
  if (entries_.size() >= capacity_ && !entries_.empty()) {
    size_t oldest = 0;
    for (size_t i = 1; i < entries_.size(); ++i)
      if (entries_[i].last_use < entries_[oldest].last_use) oldest = i;
    drop(memory, oldest);
  }
  void* here = memory.open_exported(m, why);
  if (here != nullptr) entries_.push_back({owner, m.base, m.size, m.buffer_id, here, clock_});
  return here;
}

void IpcCache::clear(DeviceMemory& memory) {
  while (!entries_.empty()) drop(memory, entries_.size() - 1);
}

}  // namespace weft::gpu
