// Typed sends and receives: the zero-copy path for contiguous host layouts (and device buffers
// the transport takes as they are: libfabric with FI_HMEM, pt2pt/ofi_hmem.hpp), staging
// otherwise (non-contiguous layouts, and other device memory).
#include "pt2pt/typed.hpp"

#include "gpu/typed_copy.hpp"
#include "pt2pt/buffered.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {
namespace {

// Whether count × type at `buf` goes to the transport as it is: contiguous, and host memory or
// device memory the transport takes from or to world rank `peer` (kAnyPeer: host only).
bool as_it_is(const void* buf, size_t count, const Datatype& type, int peer) {
  if (!type.is_contiguous(count)) return false;
  if (!gpu::typed_on_device(buf, count, type)) return true;
  return peer != kAnyPeer && world().transport->takes_device_memory(peer, count * type.size());
}

std::unique_ptr<Staging> staging_of(size_t bytes) {
  auto st = std::make_unique<Staging>();
  st->packed = std::make_unique_for_overwrite<unsigned char[]>(bytes);
  return st;
}

// Where the bytes of a receive of count × type land: the user's buffer itself for a contiguous
// host layout, otherwise a staging buffer of `r`, unpacked (or copied to the device) into `buf`
// when the receive completes.
void* landing_of(void* buf, size_t count, const Datatype& type, int peer, Request* r) {
  const size_t bytes = count * type.size();
  if (bytes == 0 || as_it_is(buf, count, type, peer)) return type.data_start(buf);
  r->staging = staging_of(bytes);
  r->staging->type = type.share();
  r->staging->user_buf = buf;
  r->staging->count = count;
  return r->staging->packed.get();
}

}  // namespace

Status start_typed_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                        int dest, int tag, SendMode mode, Request* r) {
  if (mode == SendMode::kBuffered) return start_buffered_send(comm, buf, count, type, dest, tag, r);
  const size_t bytes = count * type.size();
  if (dest == MPI_PROC_NULL || bytes == 0 || as_it_is(buf, count, type, comm.peer_world_rank(dest)))
    return start_send(comm, type.data_start(buf), bytes, dest, tag, mode, r);
  r->staging = staging_of(bytes);
  WEFT_TRY(gpu::pack_typed(buf, count, type, r->staging->packed.get()));
  return start_send(comm, r->staging->packed.get(), bytes, dest, tag, mode, r);
}

Status start_typed_recv(const Comm& comm, void* buf, size_t count, const Datatype& type, int source,
                        int tag, Request* r) {
  if (source == MPI_PROC_NULL) return start_recv(comm, buf, 0, source, tag, r);
  const int peer = source == MPI_ANY_SOURCE ? kAnyPeer : comm.peer_world_rank(source);
  return start_recv(comm, landing_of(buf, count, type, peer, r), count * type.size(), source, tag,
                    r);
}

Status start_typed_mrecv(MPI_Message message, void* buf, size_t count, const Datatype& type,
                         Request* r) {
  if (message == MPI_MESSAGE_NO_PROC) return start_mrecv(message, buf, 0, r);
  return start_mrecv(message, landing_of(buf, count, type, kAnyPeer, r), count * type.size(), r);
}

}  // namespace weft::pt2pt
