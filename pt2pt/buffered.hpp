// Buffered mode (MPI_Bsend, MPI_Ibsend, MPI_Bsend_init): the buffer the application attaches, the
// messages copied into it and their sends in flight. A buffered send is complete for the
// application once its data is copied; the copy's space is freed when its own send completes.
// Threading: one thread at a time, like the rest of point-to-point.
#pragma once
#include <cstddef>

#include "pt2pt/pt2pt.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::pt2pt {

// MPI_Buffer_attach: MPI_ERR_BUFFER when a buffer is attached already.
Status attach_buffer(void* buf, size_t size);
// Bytes of the attached buffer (0 when none is).
size_t attached_size();
// MPI_Buffer_detach: waits until every buffered message has been sent, then hands the buffer
// back; NULL and 0 when none is attached.
Status detach_buffer(void** buf, size_t* size);
// Copies (packs) count × type at `buf` into the attached buffer and starts sending the copy;
// `r` is complete on return. MPI_ERR_BUFFER, naming the bytes needed and available, when the
// attached buffer cannot take the message now.
Status start_buffered_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                           int dest, int tag, Request* r);

}  // namespace weft::pt2pt
