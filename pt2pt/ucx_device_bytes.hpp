// GPU memory through a UCX built without CUDA: a UCX generic datatype of bytes in device memory
// whose pack and unpack copy each fragment between the device and UCX's own buffers as UCX
// sends and receives it. The copy of one fragment overlaps the transfer of those before, and
// nothing is staged whole first.
#pragma once
#include <ucp/api/ucp.h>

namespace weft {

// The datatype (count: bytes). Copies go through gpu::device_memory(); a failed copy fails the
// receive (unpack) or, on the sending side, is reported on stderr (pack cannot fail in UCX).
ucs_status_t make_device_bytes_datatype(ucp_datatype_t* out);

}  // namespace weft
