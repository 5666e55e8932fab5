// Device buffers and libfabric (pt2pt/ofi_hmem.hpp).
#include "pt2pt/ofi_hmem.hpp"

#include <rdma/fi_domain.h>

#include <string>

#include "pt2pt/ofi_transport_impl.hpp"

namespace weft::ofi {

DevicePath device_path(const DeviceLimits& limits, gpu::MemoryKind kind, size_t bytes) {
  if (kind == gpu::MemoryKind::kHost) return DevicePath::kHost;
  if (!limits.provider_hmem || bytes < limits.bounce_below || bytes > limits.largest)
    return DevicePath::kStaged;
  return DevicePath::kRegistered;
}

PieceLanding piece_landing(size_t offset, size_t bytes, size_t capacity, gpu::MemoryKind kind) {
  if (offset >= capacity) return PieceLanding::kDropped;
  if (kind == gpu::MemoryKind::kDevice || offset + bytes > capacity) return PieceLanding::kBounced;
  return PieceLanding::kInBuffer;
}

Status copy_for_receive(gpu::MemoryKind kind, void* dst, const void* src, size_t bytes) {
  if (kind == gpu::MemoryKind::kDevice) return gpu::device_memory()->copy(dst, src, bytes);
  if (bytes > 0) std::memcpy(dst, src, bytes);
  return Status::success();
}

Status register_device_buffer(fid_domain* domain, const void* buf, size_t bytes, int device,
                              uint64_t access, fid_mr** out) {
  iovec iov{const_cast<void*>(buf), bytes};
  fi_mr_attr attr{};
  attr.mr_iov = &iov;
  attr.iov_count = 1;
  attr.access = access;
  attr.iface = FI_HMEM_CUDA;
  attr.device.cuda = device;
  const int rc = fi_mr_regattr(domain, &attr, 0, out);
  if (rc != 0)
    return ofi_error("fi_mr_regattr of " + std::to_string(bytes) + " bytes on CUDA device " +
                         std::to_string(device),
                     rc);
  return Status::success();
}

std::string OfiTransport::device_memory_path() const {
  const std::string who = "network (libfabric " + name_ + "): ";
  if (!hmem_) return who + "through host memory (the provider grants no FI_HMEM)";
  return who + "registered as CUDA memory (FI_HMEM) from " + std::to_string(bounce_below_) +
         " to " + std::to_string(piece_size_) + " bytes, through host memory otherwise";
}

bool OfiTransport::takes_device_memory(int, size_t bytes) const {
  return device_path({hmem_, bounce_below_, piece_size_}, gpu::MemoryKind::kDevice, bytes) ==
         DevicePath::kRegistered;
}

Status OfiTransport::descriptor(Op* op, const void* buf, size_t len, uint64_t access,
                                void** desc) {
  *desc = nullptr;
  if (!hmem_ || !gpu::on_device(buf)) return Status::success();
  WEFT_TRY(register_device_buffer(domain_, buf, len, gpu::device_memory()->device_of(buf), access,
                                  &op->device_mr));
  *desc = fi_mr_desc(op->device_mr);
  return Status::success();
}

}  // namespace weft::ofi
