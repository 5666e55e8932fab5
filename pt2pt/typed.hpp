// Point-to-point with any committed datatype: a contiguous layout goes to the transport as it is
// (pointer arithmetic only); a non-contiguous one is packed into the request's staging buffer for
// a send, or received into it and unpacked when the request completes (runtime/request.hpp).
#pragma once
#include <cstddef>

#include "pt2pt/pt2pt.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::pt2pt {

// `count` elements of `type` at `buf` (address 0 is MPI_BOTTOM). A buffered-mode send
// (SendMode::kBuffered) is copied into the attached buffer and `r` completes at once.
Status start_typed_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                        int dest, int tag, SendMode mode, Request* r);
Status start_typed_recv(const Comm& comm, void* buf, size_t count, const Datatype& type, int source,
                        int tag, Request* r);
// Receives a message found by mprobe (consuming `message`).
Status start_typed_mrecv(MPI_Message message, void* buf, size_t count, const Datatype& type,
                         Request* r);

}  // namespace weft::pt2pt
