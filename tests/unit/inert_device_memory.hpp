// A DeviceMemory that does nothing: every buffer is host memory and every operation succeeds
// without effect. Tests derive from it and override only what they look at.
#pragma once
#include <string>

#include "gpu/memory.hpp"

namespace weft::test {

class InertDeviceMemory : public gpu::DeviceMemory {
 public:
  std::string describe() override { return "inert stand-in for device memory"; }
  bool usable() override { return true; }
  gpu::MemoryKind kind_of(const void*) override { return gpu::MemoryKind::kHost; }
  Status copy(void*, const void*, size_t) override { return Status::success(); }
  void* allocate_device(size_t) override { return nullptr; }
  void free_device(void*) override {}
  void* allocate_pinned(size_t) override { return nullptr; }
  void free_pinned(void*) override {}
  bool can_reduce(const Reduction&) const override { return false; }
  Status reduce(const Reduction&, const void*, void*, size_t) override { return Status::success(); }
  Status synchronize(void*) override { return Status::success(); }
};

}  // namespace weft::test
