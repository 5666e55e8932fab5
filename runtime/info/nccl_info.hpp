// weft_info --coll's lines about NCCL: whether it loads and is used here, and for a call, NCCL's
// prediction beside the schedule Weft would run on device buffers (coll/nccl_model.hpp).
#pragma once
#include "coll/select.hpp"

namespace weft::info {

// nccl: blocking calls on device buffers, chosen by the model or forced.
void print_nccl();
// On device buffers: NCCL's prediction beside the chosen schedule's with its copies between
// device and host memory, the agreement's cost, and which runs.
void print_device_choice(const coll::Selector& selector, const coll::CollArgs& args);

}  // namespace weft::info
