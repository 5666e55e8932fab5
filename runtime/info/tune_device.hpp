// weft_tune's timing of copies between GPU and host memory, through Weft's own device layer
// (gpu/memory.hpp): what alpha_device_us and beta_device_ns_per_byte of the cost model stand for.
#pragma once

namespace weft::tune {

// A copy between device memory and pinned host memory, started and waited for: its fixed cost
// and its cost per byte, in seconds; -1 where this process has no usable CUDA device.
struct DeviceCopyTimes {
  double copy = -1;
  double per_byte = -1;
};
// On the calling rank alone: the best of `repetitions` copies of 8 B and of 4 MiB, each way,
// averaged over the two directions.
DeviceCopyTimes device_copy_seconds(int repetitions);

}  // namespace weft::tune
