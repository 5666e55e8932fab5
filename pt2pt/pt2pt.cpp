// Point-to-point semantics on top of the transport of the World.
#include "pt2pt/pt2pt.hpp"

#include "pt2pt/match_bits.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {
namespace {

Status post_send(const Comm& comm, uint32_t context, const void* buf, size_t bytes, int dest,
                 int tag, bool sync, Completion* c) {
  World& w = world();
  const int peer = comm.world_ranks[size_t(dest)];
  if (!w.transport->connected(peer)) WEFT_TRY(connect_peer(peer));
  const uint64_t bits = match_bits::make_send(context, comm.rank, tag, comm.internal);
  return w.transport->isend(peer, buf, bytes, bits, sync, c);
}

Status post_recv(const Comm& comm, uint32_t context, void* buf, size_t bytes, int source, int tag,
                 Completion* c) {
  const match_bits::RecvMatch m = match_bits::make_recv(context, source, tag, comm.internal);
  return world().transport->irecv(buf, bytes, m.bits, m.mask, c);
}

}  // namespace

Status start_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag,
                  SendMode mode, Request* r) {
  r->comm = comm.handle;
  if (dest == MPI_PROC_NULL) {
    r->kind = WeftRequestKind::kProcNull;
    r->completion.done = true;
    return Status::success();
  }
  r->kind = WeftRequestKind::kSend;
  // Ready mode needs no protocol of its own: a standard send is a correct ready send.
  return post_send(comm, comm.context, buf, bytes, dest, tag, mode == SendMode::kSynchronous,
                   &r->completion);
}

Status start_recv(const Comm& comm, void* buf, size_t bytes, int source, int tag, Request* r) {
  r->comm = comm.handle;
  if (source == MPI_PROC_NULL) {
    r->kind = WeftRequestKind::kProcNull;
    r->completion.done = true;
    return Status::success();
  }
  r->kind = WeftRequestKind::kRecv;
  return post_recv(comm, comm.context, buf, bytes, source, tag, &r->completion);
}

Status start_coll_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag,
                       Completion* c) {
  return post_send(comm, comm.coll_context(), buf, bytes, dest, tag, false, c);
}

Status start_coll_recv(const Comm& comm, void* buf, size_t bytes, int source, int tag,
                       Completion* c) {
  return post_recv(comm, comm.coll_context(), buf, bytes, source, tag, c);
}

Status probe(const Comm& comm, int source, int tag, bool blocking, int* flag, MPI_Status* status) {
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    Request null_request;
    null_request.kind = WeftRequestKind::kProcNull;
    fill_status(null_request, status);
    return Status::success();
  }
  World& w = world();
  const match_bits::RecvMatch m = match_bits::make_recv(comm.context, source, tag);
  ProbeResult found;
  bool hit = w.transport->iprobe(m.bits, m.mask, &found);
  if (!hit && blocking) {
    w.progress.wait_until([&] { return w.transport->iprobe(m.bits, m.mask, &found); });
    hit = true;
  }
  *flag = hit ? 1 : 0;
  if (hit && status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = match_bits::source_of(found.sender_bits);
    status->MPI_TAG = match_bits::tag_of(found.sender_bits);
    status->weft_bytes = (long long)found.bytes;
    status->weft_cancelled = 0;
  }
  return Status::success();
}

void wait(Request* r) {
  world().progress.wait_until([r] { return r->completion.done; });
}

}  // namespace weft::pt2pt
