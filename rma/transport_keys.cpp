// Registering window memory with the transport and exchanging keys (rma/transport_keys.hpp).
#include "rma/transport_keys.hpp"

#include <algorithm>

#include "rma/transport_atomics.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft::rma {

Status exchange_keys(Window& w, Comm& wc) {
  Transport& transport = *world().transport;
  std::vector<uint8_t> mine;
  // GPU memory is reached by messages only (rma/window.hpp).
  if (w.base != nullptr && w.bytes > 0 && !w.targets[size_t(wc.rank)].device &&
      !transport.register_memory(w.base, w.bytes, &w.registration, &mine).ok()) {
    w.registration = nullptr;
    mine.clear();  // the others reach this memory by messages
  }
  // Keys differ in length by transport and device: lengths first, then keys padded to the
  // longest.
  std::vector<uint64_t> lengths(size_t(wc.size));
  const uint64_t my_length = mine.size();
  WEFT_TRY(internal_allgather(wc, &my_length, sizeof my_length, lengths.data()));
  const size_t longest = size_t(*std::max_element(lengths.begin(), lengths.end()));
  if (longest == 0) return Status::success();
  mine.resize(longest);
  std::vector<uint8_t> keys(longest * size_t(wc.size));
  WEFT_TRY(internal_allgather(wc, mine.data(), longest, keys.data()));
  // This process's own key too where the transport has atomics: every accumulate of a type they
  // cover then goes through them, its own included (rma/transport_atomics.hpp).
  const bool own_key = covered_types(transport) != 0;
  for (int r = 0; r < wc.size; ++r) {
    Target& t = w.targets[size_t(r)];
    const bool wanted = t.reach == Reach::kRemote || (own_key && r == wc.rank);
    if (!wanted || lengths[size_t(r)] == 0) continue;
    if (!transport.rma_connected(t.world_rank)) WEFT_TRY(connect_peer(t.world_rank));
    const uint8_t* at = keys.data() + longest * size_t(r);
    const std::vector<uint8_t> key(at, at + lengths[size_t(r)]);
    if (!transport.unpack_key(t.world_rank, key, &t.key).ok()) t.key = nullptr;
  }
  return agree_transport_atomics(w, wc);
}

void release_keys(Window& w) {
  Transport& transport = *world().transport;
  for (Target& t : w.targets) {
    if (t.key != nullptr) transport.release_key(t.key);
    t.key = nullptr;
  }
  if (w.registration != nullptr) transport.deregister_memory(w.registration);
  w.registration = nullptr;
}

}  // namespace weft::rma
