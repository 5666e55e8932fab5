// Claiming, posting in and fetching from a communicator's node region.
#include "coll/node_region.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "pt2pt/shm/shm_transport.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft::coll {
namespace {

// The slot of a call: by its number (the low 32 bits), so consecutive calls use different ones.
int slot_of(uint64_t call) { return int(call % shm::kRegionSlots); }

unsigned char* payload_of(shm::RegionSlot* slot) {
  return reinterpret_cast<unsigned char*>(slot) + shm::kCell;
}

// Rank 0's part: takes a free region for a communicator of `size` ranks and empties its slots;
// -1 when every region is held.
int claim(shm::Segment& segment, int size) {
  for (int i = 0; i < segment.region_count(); ++i) {
    shm::RegionHeader* h = segment.region(i);
    uint32_t expected = 0;
    if (h->claimed.load(std::memory_order_relaxed) != 0 ||
        !h->claimed.compare_exchange_strong(expected, 1, std::memory_order_acquire))
      continue;
    for (int m = 0; m < size; ++m) {
      for (int which = 0; which < shm::kRegionSlots; ++which) {
        shm::RegionSlot* slot = segment.region_slot(i, m, which);
        slot->call.store(0, std::memory_order_relaxed);
        slot->readers_left.store(0, std::memory_order_relaxed);
      }
    }
    // The others learn the number by a message sent after this, which orders these stores
    // before their first look.
    h->users.store(uint32_t(size), std::memory_order_release);
    return i;
  }
  return -1;
}

}  // namespace

NodeRegion::NodeRegion(shm::ShmTransport* node, int index, int rank,
                       const std::vector<int>& members)
    : node_(node), index_(index), rank_(rank), capacity_(node->segment().region_payload()) {
  for (int w : members) locals_.push_back(node->local_index(w));
}

NodeRegion::~NodeRegion() {
  shm::RegionHeader* h = node_->segment().region(index_);
  if (h->users.fetch_sub(1, std::memory_order_acq_rel) == 1)
    h->claimed.store(0, std::memory_order_release);
}

bool NodeRegion::try_post(uint64_t call, const void* buf, size_t bytes, int readers) {
  if (!can_post(call)) return false;
  shm::RegionSlot* slot = node_->segment().region_slot(index_, rank_, slot_of(call));
  if (bytes > 0) std::memcpy(payload_of(slot), buf, bytes);
  slot->bytes = bytes;
  slot->readers_left.store(uint32_t(readers), std::memory_order_relaxed);
  slot->call.store(call, std::memory_order_release);
  node_->wake_after_publishing(locals_);
  return true;
}

bool NodeRegion::try_fetch(int member, uint64_t call, void* buf, size_t room, size_t* posted) {
  if (!has_posted(member, call)) return false;
  shm::RegionSlot* slot = node_->segment().region_slot(index_, member, slot_of(call));
  *posted = slot->bytes;
  const size_t n = std::min(room, size_t(slot->bytes));
  if (n > 0) std::memcpy(buf, payload_of(slot), n);
  // The last fetcher frees the slot; its owner may be asleep waiting to post in it again.
  if (slot->readers_left.fetch_sub(1, std::memory_order_acq_rel) == 1)
    node_->wake_after_publishing({&locals_[size_t(member)], 1});
  return true;
}

bool NodeRegion::can_post(uint64_t call) const {
  const shm::RegionSlot* slot = node_->segment().region_slot(index_, rank_, slot_of(call));
  return slot->readers_left.load(std::memory_order_acquire) == 0;
}

bool NodeRegion::has_posted(int member, uint64_t call) const {
  const shm::RegionSlot* slot = node_->segment().region_slot(index_, member, slot_of(call));
  return slot->call.load(std::memory_order_acquire) == call;
}

Status learn_region(Comm& comm) {
  if (comm.region.held != nullptr) return Status::success();
  comm.region.held = std::make_shared<RegionHold>();  // also while the broadcast below runs
  shm::ShmTransport* node = world().node_transport;
  // WEFT_SHM_COLL=0 made the segment without regions (runtime/transport_setup.cpp).
  if (node == nullptr || comm.is_inter() || comm.internal || comm.size < 2 ||
      node->segment().region_count() == 0)
    return Status::success();
  for (int w : comm.world_ranks)
    if (!node->reaches(w)) return Status::success();
  int index = comm.rank == 0 ? claim(node->segment(), comm.size) : -1;
  // The broadcast gives its number back to the call that comes next, as learn_nodes does
  // (runtime/comm/nodes.cpp): learning shifts none of the numbers the hang report shows. (It,
  // and learn_nodes' exchange inside it, use messages: the region is not set yet.)
  const uint32_t number = comm.coll_seq;
  const Status sent = internal_bcast(comm, &index, sizeof index, 0);
  comm.coll_seq = number;
  WEFT_TRY(sent);
  if (index >= 0)
    comm.region.held->region =
        std::make_unique<NodeRegion>(node, index, comm.rank, comm.world_ranks);
  return Status::success();
}

}  // namespace weft::coll
