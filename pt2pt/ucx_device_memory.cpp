// GPU memory and UCX (pt2pt/ucx_device_memory.hpp): the memory-types question, and the generic
// datatype that packs device memory.
#include "pt2pt/ucx_device_memory.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>

#include "gpu/memory.hpp"
#include "runtime/tools/counters.hpp"

namespace weft {
namespace {

// One message's bytes on the device, read (sending) or written (receiving) through a staging
// pipeline (gpu/staging.hpp): UCX's fragments are far smaller than a chunk, so the device copies
// a chunk ahead while UCX packs and sends the fragments of the one before.
struct DeviceBytes {
  size_t bytes;
  std::unique_ptr<gpu::DeviceReader> reader;
  std::unique_ptr<gpu::DeviceWriter> writer;
  bool failed = false;  // unpack reported a failed copy to UCX (which fails the receive)
};

const gpu::StagingShape& shape_of(void* context) {
  return *static_cast<const gpu::StagingShape*>(context);
}

void say_once(const char* what, const Status& s) {
  static std::atomic<bool> said{false};
  if (!said.exchange(true))
    std::fprintf(stderr, "weft: copying a GPU message %s for UCX failed: %s\n", what,
                 s.message.c_str());
}

void* start_pack(void* context, const void* buffer, size_t count) {
  return new DeviceBytes{
      count,
      std::make_unique<gpu::DeviceReader>(*gpu::device_memory(), buffer, count, shape_of(context)),
      nullptr};
}

void* start_unpack(void* context, void* buffer, size_t count) {
  return new DeviceBytes{
      count, nullptr,
      std::make_unique<gpu::DeviceWriter>(*gpu::device_memory(), buffer, count, shape_of(context))};
}

size_t packed_size(void* state) { return static_cast<DeviceBytes*>(state)->bytes; }

size_t pack(void* state, size_t offset, void* dest, size_t max_length) {
  auto* d = static_cast<DeviceBytes*>(state);
  const size_t n = std::min(max_length, d->bytes - std::min(offset, d->bytes));
  if (Status s = d->reader->read(offset, dest, n); !s.ok()) say_once("out", s);
  return n;
}

// The data is on the device once the last byte is in; a message shorter than the buffer lands
// at finish (which UCX calls before it completes the receive).
ucs_status_t unpack(void* state, size_t offset, const void* src, size_t length) {
  auto* d = static_cast<DeviceBytes*>(state);
  if (offset > d->bytes || length > d->bytes - offset) return UCS_ERR_MESSAGE_TRUNCATED;
  Status s = d->writer->write(offset, src, length);
  if (s.ok() && d->writer->written() == d->bytes) s = d->writer->finish();
  d->failed = d->failed || !s.ok();
  return s.ok() ? UCS_OK : UCS_ERR_IO_ERROR;
}

void finish(void* state) {
  auto* d = static_cast<DeviceBytes*>(state);
  if (d->writer != nullptr) {
    if (Status s = d->writer->finish(); !s.ok() && !d->failed) say_once("in", s);
    tools::g_counters.gpu_staged_chunks.add(d->writer->chunks_copied());
  } else {
    tools::g_counters.gpu_staged_chunks.add(d->reader->chunks_copied());
  }
  delete d;
}

}  // namespace

ucs_status_t make_device_bytes_datatype(const gpu::StagingShape* shape, ucp_datatype_t* out) {
  static const ucp_generic_dt_ops_t ops = {start_pack, start_unpack, packed_size,
                                           pack,       unpack,       finish};
  return ucp_dt_create_generic(&ops, const_cast<gpu::StagingShape*>(shape), out);
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
    return "from 8 KiB through a staging pipeline of pinned host chunks that the GPU fills or "
           "drains while UCX sends the fragments of the one before, smaller ones through host "
           "memory (this UCX has no CUDA support)";
  return "through host memory (this UCX has no CUDA support)";
}

}  // namespace weft
