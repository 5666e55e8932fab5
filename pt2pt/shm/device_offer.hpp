// What a record of a message in GPU memory carries (pt2pt/shm/ring.hpp kDeviceRendezvous): the
// allocation holding it, as the receiver maps it (CUDA IPC), and where the message starts.
#pragma once
#include <cstdint>

#include "gpu/memory.hpp"

namespace weft::shm {

struct DeviceOffer {
  gpu::ExportedMemory memory;
  uint64_t offset = 0;  // of the message's first byte from memory.base
};

}  // namespace weft::shm
