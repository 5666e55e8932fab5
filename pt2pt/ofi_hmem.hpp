// Device (GPU) buffers and libfabric. Where the provider grants FI_HMEM, a contiguous device
// buffer goes to libfabric as it is, registered for the one operation with fi_mr_regattr
// (iface FI_HMEM_CUDA, the device the pointer is on, gpu/memory.hpp device_of); otherwise
// pt2pt stages it through host memory (pt2pt/typed.cpp), as for UCX. The decision is a function
// of its own so that a test checks it where no libfabric with CUDA exists (Debian's has none).
#pragma once
#include <rdma/fabric.h>

#include <cstddef>
#include <cstdint>

#include "gpu/memory.hpp"
#include "runtime/status.hpp"

namespace weft::ofi {

enum class DevicePath : uint8_t {
  kHost,        // host memory: passed as it is, unregistered
  kRegistered,  // device memory passed as it is, registered as FI_HMEM_CUDA
  kStaged,      // device memory copied through host memory by pt2pt
};

// What the transport can do with device memory: whether the provider granted FI_HMEM, and the
// sizes it moves in one operation of its own. A message shorter than `bounce_below` lands in a
// host bounce buffer, a longer one than `largest` goes as pieces through host buffers at its
// edges: both stage device memory.
struct DeviceLimits {
  bool provider_hmem = false;
  size_t bounce_below = 0;
  size_t largest = 0;
};

DevicePath device_path(const DeviceLimits& limits, gpu::MemoryKind kind, size_t bytes);

// Registers `bytes` of device memory at `buf` on CUDA device `device` for local use in one
// send or receive (`access`: FI_SEND or FI_RECV).
Status register_device_buffer(fid_domain* domain, const void* buf, size_t bytes, int device,
                              uint64_t access, fid_mr** out);

}  // namespace weft::ofi
