// GPU memory and UCX (pt2pt/ucx_device_memory.hpp): the memory-types question, and the generic
// datatype that packs device memory.
#include "pt2pt/ucx_device_memory.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>

#include "gpu/memory.hpp"

namespace weft {
namespace {

// One message's bytes on the device.
struct DeviceBytes {
  unsigned char* data;
  size_t bytes;
};

void* start(void*, const void* buffer, size_t count) {
  return new DeviceBytes{static_cast<unsigned char*>(const_cast<void*>(buffer)), count};
}

void* start_unpack(void* context, void* buffer, size_t count) {
  return start(context, buffer, count);
}

size_t packed_size(void* state) { return static_cast<DeviceBytes*>(state)->bytes; }

size_t pack(void* state, size_t offset, void* dest, size_t max_length) {
  const auto* d = static_cast<DeviceBytes*>(state);
  const size_t n = std::min(max_length, d->bytes - std::min(offset, d->bytes));
  if (Status s = gpu::device_memory()->copy(dest, d->data + offset, n); !s.ok()) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      std::fprintf(stderr, "weft: copying a GPU message out for UCX failed: %s\n",
                   s.message.c_str());
  }
  return n;
}

ucs_status_t unpack(void* state, size_t offset, const void* src, size_t length) {
  const auto* d = static_cast<DeviceBytes*>(state);
  if (offset > d->bytes || length > d->bytes - offset) return UCS_ERR_MESSAGE_TRUNCATED;
  return gpu::device_memory()->copy(d->data + offset, src, length).ok() ? UCS_OK : UCS_ERR_IO_ERROR;
}

void finish(void* state) { delete static_cast<DeviceBytes*>(state); }

}  // namespace

ucs_status_t make_device_bytes_datatype(ucp_datatype_t* out) {
  static const ucp_generic_dt_ops_t ops = {start, start_unpack, packed_size, pack, unpack, finish};
  return ucp_dt_create_generic(&ops, nullptr, out);
}

bool ucx_moves_cuda_memory(uint64_t memory_types) {
  return (memory_types & UCS_BIT(UCS_MEMORY_TYPE_CUDA)) != 0;
}

bool ucx_library_moves_cuda_memory() {
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES;
  params.features = UCP_FEATURE_TAG;
  ucp_context_h context = nullptr;
  if (ucp_init(&params, nullptr, &context) != UCS_OK) return false;
  ucp_context_attr_t attr{};
  attr.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES;
  const bool cuda =
      ucp_context_query(context, &attr) == UCS_OK && ucx_moves_cuda_memory(attr.memory_types);
  ucp_cleanup(context);
  return cuda;
}

std::string ucx_device_path(bool moves_cuda, bool packs) {
  if (moves_cuda) return "as they are (this UCX moves CUDA memory)";
  if (packs)
    return "from 8 KiB copied fragment by fragment between the device and UCX's buffers as UCX "
           "sends them, smaller ones through host memory (this UCX has no CUDA support)";
  return "through host memory (this UCX has no CUDA support)";
}

}  // namespace weft
