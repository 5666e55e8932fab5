// Timing copies between GPU and host memory for weft_tune (tune_device.hpp).
#include "runtime/info/tune_device.hpp"

#include <algorithm>
#include <cstddef>

#include "gpu/memory.hpp"
#include "mpi.h"

namespace weft::tune {

DeviceCopyTimes device_copy_seconds(int repetitions) {
  DeviceCopyTimes times;
  gpu::DeviceMemory* gpu = gpu::usable_device_memory();
  if (gpu == nullptr) return times;
  constexpr size_t kSmall = 8, kLarge = size_t(4) << 20;
  void* device = gpu->allocate_device(kLarge);
  void* host = gpu->allocate_pinned(kLarge);
  if (device != nullptr && host != nullptr) {
    // The best of `repetitions` copies of `bytes` each way (after one of each), averaged.
    auto best = [&](size_t bytes) {
      double to = 0, from = 0;
      for (int r = -1; r < repetitions; ++r) {
        double start = MPI_Wtime();
        if (!gpu->copy(device, host, bytes).ok()) return -1.0;
        const double t = MPI_Wtime() - start;
        start = MPI_Wtime();
        if (!gpu->copy(host, device, bytes).ok()) return -1.0;
        const double f = MPI_Wtime() - start;
        if (r == 0 || (r > 0 && t < to)) to = t;
        if (r == 0 || (r > 0 && f < from)) from = f;
      }
      return (to + from) / 2;
    };
    const double small = best(kSmall), large = best(kLarge);
    if (small >= 0 && large >= 0) {
      times.copy = small;
      times.per_byte = std::max(large - small, 0.0) / double(kLarge - kSmall);
    }
  }
  if (device != nullptr) gpu->free_device(device);
  if (host != nullptr) gpu->free_pinned(host);
  return times;
}

}  // namespace weft::tune
