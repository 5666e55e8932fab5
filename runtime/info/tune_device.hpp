// weft_tune's GPU values of the cost model: copies between GPU and host memory, timed through
// Weft's own device layer (gpu/memory.hpp) where CUDA is usable (alpha_device_us,
// beta_device_ns_per_byte); the NCCL values, which it does not time, kept.
#pragma once
#include <string>

#include "coll/tuning.hpp"

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

// On rank 0: times the copies into `model` (or keeps its values, from `origin`, without a
// device), says what it did on stdout and in `notes` (the tuning file's comments), and says the
// NCCL values are kept.
void measure_gpu_values(coll::CostModel* model, const std::string& origin, std::string* notes);

}  // namespace weft::tune
