// The short path of blocking standard sends (pt2pt/short_send.hpp).
#include "pt2pt/short_send.hpp"

#include "gpu/memory.hpp"
#include "pt2pt/match_bits.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/wait_state.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {

bool short_send(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm) {
  World& w = world();
  const Comm* c = w.comms.find(comm);
  size_t bytes = 0, elem = 0;
  if (c == nullptr || dest < 0 || dest >= c->peer_count() || tag < 0 ||
      tag > match_bits::kMaxTag || !plain_bytes(count, type, &bytes, &elem) ||
      buf == MPI_IN_PLACE || (buf == nullptr && bytes != 0) || gpu::on_device(buf))
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

}  // namespace weft::pt2pt
