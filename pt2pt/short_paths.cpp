// The short paths of point-to-point calls (pt2pt/short_paths.hpp).
#include "pt2pt/short_paths.hpp"

#include "gpu/memory.hpp"
#include "pt2pt/match_bits.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/wait_state.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {
namespace {

// The communicator and the bytes of a call that may take a short path: a live communicator, a
// plain type, and a host buffer the general path would accept.
const Comm* plain_call(World& w, MPI_Comm comm, const void* buf, MPI_Count count,
                       MPI_Datatype type, size_t* bytes) {
  const Comm* c = w.comms.find(comm);
  size_t elem = 0;
  if (c == nullptr || !plain_bytes(count, type, bytes, &elem) || !plain_buffer(buf, *bytes) ||
      gpu::on_device(buf))
    return nullptr;
  return c;
}

}  // namespace

bool short_send(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm) {
  World& w = world();
  size_t bytes = 0;
  const Comm* c = plain_call(w, comm, buf, count, type, &bytes);
  if (c == nullptr || dest < 0 || dest >= c->peer_count() || tag < 0 ||
      tag > match_bits::kMaxTag)
    return false;
  const uint64_t bits = match_bits::make_send(c->context, c->rank, tag, c->internal);
  if (!w.transport->send_now(c->peer_world_rank(dest), buf, bytes, bits)) return false;
  // What the general path records of a send (pt2pt::start_send).
  wait_state::note_message(true, *c, dest, tag, bytes);
  tools::g_counters.messages_sent.add(1);
  tools::g_counters.bytes_sent.add(bytes);
  tools::g_counters.p2p_short_sends.add(1);
  return true;
}

bool short_recv(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                Completion* c) {
  World& w = world();
  size_t bytes = 0;
  const Comm* comm_of = plain_call(w, comm, buf, count, type, &bytes);
  if (comm_of == nullptr ||
      (source != MPI_ANY_SOURCE && (source < 0 || source >= comm_of->peer_count())) ||
      (tag != MPI_ANY_TAG && (tag < 0 || tag > match_bits::kMaxTag)))
    return false;
  const match_bits::RecvMatch m =
      match_bits::make_recv(comm_of->context, source, tag, comm_of->internal);
  const int peer = source == MPI_ANY_SOURCE ? kAnyPeer : comm_of->peer_world_rank(source);
  // What the general path records of a receive (pt2pt::start_recv).
  wait_state::note_message(false, *comm_of, source, tag, bytes);
  if (!w.transport->irecv(peer, buf, bytes, m.bits, m.mask, c).ok()) return false;
  tools::g_counters.messages_received.add(1);
  tools::g_counters.bytes_received.add(bytes);
  tools::g_counters.p2p_short_recvs.add(1);
  w.progress.wait_until([c] { return c->done; });
  return true;
}

}  // namespace weft::pt2pt
