// Buffered mode (MPI_Bsend, MPI_Ibsend, MPI_Bsend_init): the buffers the application attaches, the
// messages copied into them and their sends in flight. A buffered send is complete for the
// application once its data is copied; the copy's space is freed when its own send completes.
// MPI 4.1 §3.6: a buffer is attached to the process, to one communicator or to one session; a
// send uses its communicator's buffer, else the buffer of the session the communicator derives
// from, else the process's. MPI_BUFFER_AUTOMATIC makes the library allocate each copy itself.
// Threading: one thread at a time, like the rest of point-to-point.
#pragma once
#include <cstddef>
#include <cstdint>

#include "pt2pt/pt2pt.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::pt2pt {

// Where a buffer is attached: the process, a communicator or a session (by handle).
struct BufferScope {
  enum class Kind : uint8_t { kProcess, kComm, kSession };
  Kind kind = Kind::kProcess;
  int handle = 0;

  static BufferScope process() { return {}; }
  static BufferScope comm(MPI_Comm c) { return {Kind::kComm, c}; }
  static BufferScope session(MPI_Session s) { return {Kind::kSession, s}; }
  // One number per scope, to find its buffer by.
  uint64_t key() const { return uint64_t(kind) << 32 | uint32_t(handle); }
};

// MPI_Buffer_attach / MPI_Comm_attach_buffer: MPI_ERR_BUFFER when the scope has a buffer already.
// `buf` may be MPI_BUFFER_AUTOMATIC (then `size` is ignored).
Status attach_buffer(BufferScope scope, void* buf, size_t size);
// Bytes of the scope's attached buffer (0 when none is, or when it is MPI_BUFFER_AUTOMATIC).
size_t attached_size(BufferScope scope);
// MPI_Buffer_detach / MPI_Comm_detach_buffer: waits until every message buffered in the scope
// has been sent, then hands the buffer back; NULL and 0 when none is attached,
// MPI_BUFFER_AUTOMATIC and 0 for an automatic one.
Status detach_buffer(BufferScope scope, void** buf, size_t* size);
// MPI_Buffer_flush / MPI_Comm_flush_buffer: waits until the messages buffered in the scope so far
// have been sent; the buffer stays attached.
void flush_buffer(BufferScope scope);
// MPI_Buffer_iflush / MPI_Comm_iflush_buffer: the same as a request, completed by Wait/Test.
void start_flush(BufferScope scope, Request* r);
// MPI_Comm_free and MPI_Session_finalize: the buffer of a communicator or a session goes with it,
// once its messages are sent.
void forget_buffer(BufferScope scope);
// Copies (packs) count × type at `buf` into the buffer comm's sends use (its own, its session's
// or the process's) and starts sending the copy; `r` is complete on return. MPI_ERR_BUFFER, naming
// the bytes needed and available, when no buffer is attached or it cannot take the message now.
Status start_buffered_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                           int dest, int tag, Request* r);

}  // namespace weft::pt2pt
