// Point-to-point semantics on top of the transport of the World.
#include "pt2pt/pt2pt.hpp"

#include <memory>

#include "pt2pt/match_bits.hpp"
#include "runtime/fortran_handles.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/wait_state.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {
namespace {

Status post_send(const Comm& comm, uint32_t context, const void* buf, size_t bytes, int dest,
                 int tag, bool sync, Completion* c) {
  const uint64_t bits = match_bits::make_send(context, comm.rank, tag, comm.internal);
  return send_bits(comm.peer_world_rank(dest), buf, bytes, bits, sync, c);
}

Status post_recv(const Comm& comm, uint32_t context, void* buf, size_t bytes, int source, int tag,
                 Completion* c) {
  const match_bits::RecvMatch m = match_bits::make_recv(context, source, tag, comm.internal);
  const int peer = source == MPI_ANY_SOURCE ? kAnyPeer : comm.peer_world_rank(source);
  return world().transport->irecv(peer, buf, bytes, m.bits, m.mask, c);
}

void fill_probe_status(const ProbeResult& found, MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = match_bits::source_of(found.sender_bits);
  status->MPI_TAG = match_bits::tag_of(found.sender_bits);
  status->weft_bytes = (long long)found.bytes;
  status->weft_cancelled = 0;
}

// Probe and matched probe: `take` removes the message found from matching and hands it out as
// *message.
Status find_message(const Comm& comm, int source, int tag, bool blocking, bool take, int* flag,
                    MPI_Message* message, MPI_Status* status) {
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    Request null_request;
    null_request.kind = WeftRequestKind::kProcNull;
    fill_status(null_request, status);
    return Status::success();
  }
  World& w = world();
  const match_bits::RecvMatch m = match_bits::make_recv(comm.context, source, tag, comm.internal);
  const int peer = source == MPI_ANY_SOURCE ? kAnyPeer : comm.peer_world_rank(source);
  ProbeResult found;
  auto look = [&] {
    return take ? w.transport->take_message(peer, m.bits, m.mask, &found)
                : w.transport->iprobe(peer, m.bits, m.mask, &found);
  };
  bool hit = look();
  if (!hit && blocking) {
    w.progress.wait_until(look);
    hit = true;
  }
  *flag = hit ? 1 : 0;
  *message = MPI_MESSAGE_NULL;
  if (!hit) return Status::success();
  if (take) *message = new weft_message{found, comm.handle};
  fill_probe_status(found, status);
  return Status::success();
}

}  // namespace

Status send_bits(int world_peer, const void* buf, size_t bytes, uint64_t bits, bool sync,
                 Completion* c) {
  World& w = world();
  if (!w.transport->connected(world_peer)) WEFT_TRY(connect_peer(world_peer));
  return w.transport->isend(world_peer, buf, bytes, bits, sync, c);
}

Status start_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag, SendMode mode,
                  Request* r) {
  r->comm = comm.handle;
  if (dest == MPI_PROC_NULL) {
    r->kind = WeftRequestKind::kProcNull;
    r->completion.done = true;
    return Status::success();
  }
  r->kind = WeftRequestKind::kSend;
  wait_state::note_message(true, comm, dest, tag, bytes);
  tools::g_counters.messages_sent.add(1);
  tools::g_counters.bytes_sent.add(bytes);
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
  wait_state::note_message(false, comm, source, tag, bytes);
  tools::g_counters.messages_received.add(1);
  tools::g_counters.bytes_received.add(bytes);
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
  MPI_Message message = MPI_MESSAGE_NULL;
  return find_message(comm, source, tag, blocking, false, flag, &message, status);
}

Status mprobe(const Comm& comm, int source, int tag, bool blocking, int* flag, MPI_Message* message,
              MPI_Status* status) {
  return find_message(comm, source, tag, blocking, true, flag, message, status);
}

Status start_mrecv(MPI_Message message, void* buf, size_t bytes, Request* r) {
  if (message == MPI_MESSAGE_NO_PROC) {
    r->kind = WeftRequestKind::kProcNull;
    r->completion.done = true;
    return Status::success();
  }
  const std::unique_ptr<weft_message> owned(message);
  fhandles::forget_message(message);  // its MPI_Message_c2f integer, if any, goes stale
  r->comm = owned->comm;
  r->kind = WeftRequestKind::kRecv;
  tools::g_counters.messages_received.add(1);
  tools::g_counters.bytes_received.add(bytes);
  return world().transport->recv_message(owned->taken, buf, bytes, &r->completion);
}

void wait(Request* r) {
  world().progress.wait_until([r] { return r->completion.done; });
  deliver_staged(r);
}

}  // namespace weft::pt2pt
