// GPU memory and UCX: whether this UCX moves CUDA memory itself (built with CUDA), and where it
// does not, a UCX generic datatype of bytes in device memory whose pack and unpack serve UCX's
// fragments from a staging pipeline of pinned chunks (gpu/staging.hpp): the device copies the
// next chunks while UCX sends the fragments of one, and nothing is staged whole first.
#pragma once
#include <ucp/api/ucp.h>

#include <cstdint>
#include <string>

#include "gpu/staging.hpp"

namespace weft {

// The datatype (count: bytes), cutting chunks as `shape` (kept by the caller while the datatype
// lives) says. Copies go through gpu::device_memory(); a failed copy fails the receive (unpack)
// or, on the sending side, is reported on stderr (pack cannot fail in UCX).
ucs_status_t make_device_bytes_datatype(const gpu::StagingShape* shape, ucp_datatype_t* out);

// Whether a UCX context whose memory types (ucp_context_attr_t::memory_types) are these moves
// CUDA device memory itself: built with CUDA support. A UCX without it crashes on a device buffer.
bool ucx_moves_cuda_memory(uint64_t memory_types);
// The same for the UCX this process loads, asked of a context made for the question (weft_info);
// false where none can be made.
bool ucx_library_moves_cuda_memory();
// How device buffers go through UCX, in words (the transport's device_memory_path, weft_info):
// as they are where UCX moves CUDA memory, else packed by the datatype above (`packs`) or staged.
std::string ucx_device_path(bool moves_cuda, bool packs);

}  // namespace weft
