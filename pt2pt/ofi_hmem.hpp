// Device (GPU) buffers and libfabric. Where the provider grants FI_HMEM, a contiguous device
// buffer goes to libfabric as it is, registered for the one operation with fi_mr_regattr
// (iface FI_HMEM_CUDA, the device the pointer is on, gpu/memory.hpp device_of); otherwise
// pt2pt stages it through host memory (pt2pt/typed.cpp), as for UCX. The decision is a function
// of its own so that a test checks it where no libfabric with CUDA exists (Debian's has none).
#pragma once
#include <rdma/fabric.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

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

// Where one piece of a segmented message lands in the receive that matched it
// (pt2pt/ofi_segments.cpp): the piece is bytes [offset, offset + bytes) of the message, the
// receive's buffer `capacity` bytes of memory of `kind`. A device buffer registered whole
// (kRegistered) meets a segmented sender only when the message is longer than the largest one
// operation carries, so it is truncated.
enum class PieceLanding : uint8_t {
  kInBuffer,  // straight into the buffer: host memory, wholly inside it
  kBounced,   // into host memory, whose part inside the buffer is copied there: a piece across
              // the buffer's end, or any piece of a device buffer (pieces register nothing)
  kDropped,   // past the buffer's end: into host memory of its own, read and dropped
};
PieceLanding piece_landing(size_t offset, size_t bytes, size_t capacity, gpu::MemoryKind kind);

// Copies `bytes` between host memory and a receive buffer of `kind` (either way): by the
// device's copy where that is device memory, which the CPU cannot touch.
Status copy_for_receive(gpu::MemoryKind kind, void* dst, const void* src, size_t bytes);

// Registers `bytes` of device memory at `buf` on CUDA device `device` for local use in one
// send or receive (`access`: FI_SEND or FI_RECV).
Status register_device_buffer(fid_domain* domain, const void* buf, size_t bytes, int device,
                              uint64_t access, fid_mr** out);

}  // namespace weft::ofi
