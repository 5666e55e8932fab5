// The process's DeviceMemory: CUDA's once found, or the one a test put in its place.
#include "gpu/memory.hpp"

#include <atomic>
#include <mutex>

#include "gpu/cuda_memory.hpp"

namespace weft::gpu {
namespace {

std::atomic<DeviceMemory*> g_found{nullptr};
std::atomic<DeviceMemory*> g_replacement{nullptr};

}  // namespace

thread_local int NoDeviceWaits::depth_ = 0;

const std::string& find_device_memory(bool enabled) {
  static std::once_flag once;
  static std::string why;
  std::call_once(once, [enabled] {
    if (!enabled) {
      why = "disabled by WEFT_CUDA=0";
      return;
    }
    g_found.store(find_cuda_memory(&why), std::memory_order_release);
  });
  return why;
}

DeviceMemory* device_memory() {
  DeviceMemory* replacement = g_replacement.load(std::memory_order_relaxed);
  return replacement != nullptr ? replacement : g_found.load(std::memory_order_acquire);
}

void set_device_memory(DeviceMemory* memory) {
  g_replacement.store(memory, std::memory_order_relaxed);
}

}  // namespace weft::gpu
