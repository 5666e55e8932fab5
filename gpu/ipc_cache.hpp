// Device allocations that other processes of the node exported (CUDA IPC), mapped here once and
// kept: opening one costs far more than copying a message out of it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/memory.hpp"

namespace weft::gpu {

class IpcCache {
 public:
  explicit IpcCache(size_t capacity = 128) : capacity_(capacity) {}

  // The address here of the base of allocation `m` of process `owner` (any number that names
  // the process): mapped now or earlier; nullptr, with the reason in *why, where it cannot be.
  // A mapping of `owner` that `m` overlaps but does not match is of an allocation freed since,
  // and is dropped; beyond `capacity` the least recently used mapping goes.
  void* map(DeviceMemory& memory, int owner, const ExportedMemory& m, std::string* why);
  // Unmaps everything.
  void clear(DeviceMemory& memory);
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    int owner;
    uint64_t base, size, buffer_id;
    void* here;
    uint64_t last_use;
  };
  void drop(DeviceMemory& memory, size_t i);

  size_t capacity_;
  uint64_t clock_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace weft::gpu
