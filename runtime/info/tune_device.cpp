// weft_tune's GPU values of the cost model (tune_device.hpp).
#include "runtime/info/tune_device.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>

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

void measure_gpu_values(coll::CostModel* model, const std::string& origin, std::string* notes) {
  const DeviceCopyTimes times = device_copy_seconds(21);
  if (times.copy < 0) {
    std::printf(
        "alpha_device_us, beta_device_ns_per_byte   %.3f, %.4f   not measured: no CUDA "
        "device usable here; kept from %s\n",
        model->alpha_device_us, model->beta_device_ns_per_byte, origin.c_str());
    *notes +=
        "# alpha_device_us, beta_device_ns_per_byte: not measured (no CUDA device); kept "
        "from " +
        origin + "\n";
  } else {
    model->alpha_device_us = times.copy * 1e6;
    model->beta_device_ns_per_byte = times.per_byte * 1e9;
    std::printf(
        "alpha_device_us    %8.3f   8 B copies between GPU and pinned host memory, each "
        "way, best of 21\n",
        model->alpha_device_us);
    std::printf("beta_device_ns_per_byte %8.4f   4 MiB such copies against 8 B ones, per byte\n",
                model->beta_device_ns_per_byte);
    *notes +=
        "# alpha_device_us: 8 B copies between GPU and pinned host memory on rank 0\n"
        "# beta_device_ns_per_byte: 4 MiB such copies against 8 B ones\n";
  }
  std::printf(
      "alpha_nccl_us, beta_nccl_ns_per_byte   %.3f, %.4f   not measured: weft_tune does not "
      "time NCCL; kept from %s\n",
      model->alpha_nccl_us, model->beta_nccl_ns_per_byte, origin.c_str());
  *notes += "# alpha_nccl_us, beta_nccl_ns_per_byte: not measured; kept from " + origin + "\n";
}

}  // namespace weft::tune
