// Claiming, posting in and fetching from a communicator's node region.
#include "coll/node_region.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "pt2pt/shm/cross_memory.hpp"
#include "pt2pt/shm/shm_transport.hpp"
#include "pt2pt/shm/split_copy.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/config.hpp"
#include "runtime/world.hpp"

namespace weft::coll {
namespace {

// A post by reference: where the data lies in its owner's memory. Its header's byte count is
// kByReference, which no post by copy has.
struct Reference {
  uint64_t address = 0;
  uint64_t bytes = 0;
};
static_assert(sizeof(Reference) <= shm::kLinePayload);
constexpr uint32_t kByReference = UINT32_MAX;
// A shared post by reference: its Reference, and from the payload's second cache line one copy
// slot per member (pt2pt/shm/split_copy.hpp) in which a reader that takes the whole post offers
// its buffer, so that the poster can write chunks into it while it waits.
constexpr uint32_t kByReferenceShared = UINT32_MAX - 1;
constexpr size_t kSharedTable = shm::kCell;  // where the copy slots start in the payload

shm::CopySlot* shared_slot(unsigned char* payload, int member) {
  return reinterpret_cast<shm::CopySlot*>(payload + kSharedTable) + member;
}

// Rank 0's part: takes a free region for a communicator of `size` ranks and empties its slots
// and lines; -1 when every region is held.
int claim(shm::Segment& segment, int size) {
  for (int i = 0; i < segment.region_count(); ++i) {
    shm::RegionHeader* h = segment.region(i);
    uint32_t expected = 0;
    if (h->claimed.load(std::memory_order_relaxed) != 0 ||
        !h->claimed.compare_exchange_strong(expected, 1, std::memory_order_acquire))
      continue;
    auto empty = [](shm::PostHeader& head) {
      head.call.store(0, std::memory_order_relaxed);
      head.readers_left.store(0, std::memory_order_relaxed);
    };
    for (int m = 0; m < size; ++m) {
      for (int odd = 0; odd < 2; ++odd)
        segment.region_arrival(i, m, odd)->number.store(0, std::memory_order_relaxed);
      for (int which = 0; which < shm::kRegionSlots; ++which)
        empty(segment.region_slot(i, m, which)->head);
      for (int which = 0; which < shm::kRegionLines; ++which)
        empty(segment.region_line(i, m, which)->head);
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
                       const std::vector<int>& members, size_t shared_read_min)
    : node_(node),
      index_(index),
      rank_(rank),
      capacity_(node->segment().region_payload()),
      shared_read_min_(shared_read_min) {
  for (int w : members) locals_.push_back(node->local_index(w));
}

NodeRegion::~NodeRegion() {
  shm::RegionHeader* h = node_->segment().region(index_);
  if (h->users.fetch_sub(1, std::memory_order_acq_rel) == 1)
    h->claimed.store(0, std::memory_order_release);
}

NodeRegion::Place NodeRegion::place(int member, uint64_t call, size_t bytes) const {
  const shm::Segment& s = node_->segment();
  if (bytes <= shm::kLinePayload) {
    shm::RegionLine* line = s.region_line(index_, member, int(call % shm::kRegionLines));
    return {&line->head, line->payload};
  }
  shm::RegionSlot* slot = s.region_slot(index_, member, int(call % shm::kRegionSlots));
  return {&slot->head, reinterpret_cast<unsigned char*>(slot) + shm::kCell};
}

NodeRegion::Place NodeRegion::posted(int member, uint64_t call) const {
  // A small post is in a line, a larger one in a slot; the fetcher looks at both, since what it
  // expects need not be what was posted.
  const Place line = place(member, call, 0);
  if (line.head->call.load(std::memory_order_acquire) == call) return line;
  const Place slot = place(member, call, shm::kLinePayload + 1);
  if (slot.head->call.load(std::memory_order_acquire) == call) return slot;
  return {};
}

bool NodeRegion::try_post(uint64_t call, const void* buf, size_t bytes, int readers) {
  return try_publish(call, buf, bytes, uint32_t(bytes), readers);
}

bool NodeRegion::try_publish(uint64_t call, const void* payload, size_t bytes, uint32_t stated,
                             int readers, size_t cleared) {
  const Place p = place(rank_, call, bytes + cleared);
  if (p.head->readers_left.load(std::memory_order_acquire) != 0) return false;
  if (bytes > 0) std::memcpy(p.payload, payload, bytes);
  if (cleared > 0) std::memset(p.payload + bytes, 0, cleared);
  p.head->bytes = stated;
  p.head->readers_left.store(uint32_t(readers), std::memory_order_relaxed);
  p.head->call.store(call, std::memory_order_release);
  node_->wake_after_publishing(locals_);
  return true;
}

bool NodeRegion::try_fetch(int member, uint64_t call, size_t from, void* buf, size_t room,
                           size_t* bytes) {
  const Place p = posted(member, call);
  if (p.head == nullptr) return false;
  *bytes = p.head->bytes;
  const size_t n = from < *bytes ? std::min(room, *bytes - from) : 0;
  if (n > 0) std::memcpy(buf, p.payload + from, n);
  fetched(member, p);
  return true;
}

void NodeRegion::fetched(int member, const Place& p) {
  // The last fetcher frees the place; its owner may be asleep waiting to post in it again, or
  // for its post by reference to be read.
  if (p.head->readers_left.fetch_sub(1, std::memory_order_acq_rel) == 1)
    node_->wake_after_publishing({&locals_[size_t(member)], 1});
}

static_assert(kArrivalBytes == shm::kArrivalPayload);

bool NodeRegion::try_arrive(uint64_t a, const void* data, size_t bytes) {
  if (completed_ + 1 < a) return false;
  shm::RegionArrival* line = node_->segment().region_arrival(index_, rank_, int(a % 2));
  if (bytes > 0) std::memcpy(line->payload, data, bytes);
  line->bytes = uint32_t(bytes);
  line->number.store(a, std::memory_order_release);
  node_->wake_after_publishing(locals_);
  return true;
}

bool NodeRegion::all_arrived(uint64_t a) const {
  // The members' lines in a row, without asking the segment for each: a wait polls this.
  const shm::RegionArrival* lines = node_->segment().region_arrival(index_, 0, int(a % 2));
  for (size_t m = 0; m < locals_.size(); ++m)
    if (m != size_t(rank_) &&
        lines[m * shm::kArrivalStride].number.load(std::memory_order_acquire) < a)
      return false;
  return true;
}

bool NodeRegion::try_complete(uint64_t a, void* out, size_t bytes, OddArrival* odd) {
  if (!all_arrived(a)) return false;
  *odd = {};
  const shm::RegionArrival* lines = node_->segment().region_arrival(index_, 0, int(a % 2));
  for (size_t m = 0; m < locals_.size() && bytes > 0; ++m) {
    const shm::RegionArrival& line = lines[m * shm::kArrivalStride];
    if (line.bytes != bytes) {
      *odd = {int(m), line.bytes};
      continue;
    }
    std::memcpy(static_cast<unsigned char*>(out) + m * bytes, line.payload, bytes);
  }
  completed_ = a;
  return true;
}

size_t NodeRegion::reference_bytes() const {
  const size_t shared = kSharedTable + locals_.size() * sizeof(shm::CopySlot);
  return shared_read_min_ != 0 && shared <= capacity_ ? shared : sizeof(Reference);
}

bool NodeRegion::try_post_reference(uint64_t call, const void* buf, size_t bytes, int fetches) {
  const Reference ref{reinterpret_cast<uint64_t>(buf), bytes};
  const size_t extent = reference_bytes();
  if (extent == sizeof ref) return try_publish(call, &ref, sizeof ref, kByReference, fetches);
  return try_publish(call, &ref, sizeof ref, kByReferenceShared, fetches, extent - sizeof ref);
}

bool NodeRegion::fetched_by_all(uint64_t call) const {
  // Once this rank has posted again in the place, the post was fetched by all before.
  const Place p = place(rank_, call, reference_bytes());
  return p.head->call.load(std::memory_order_acquire) != call ||
         p.head->readers_left.load(std::memory_order_acquire) == 0;
}

void NodeRegion::help_readers(uint64_t call) {
  const Place p = place(rank_, call, reference_bytes());
  if (p.head->bytes != kByReferenceShared || p.head->call.load(std::memory_order_acquire) != call)
    return;
  uint64_t written = 0;
  for (size_t m = 0; m < locals_.size(); ++m) {
    shm::CopySlot* slot = shared_slot(p.payload, int(m));
    if (int(m) == rank_ || slot->busy.load(std::memory_order_acquire) == 0) continue;
    written += shm::claim_chunks(slot, false, node_->segment().peer(locals_[m])->pid);
  }
  tools::g_counters.coll_reference_bytes_written.add(written);
}

Read NodeRegion::try_read(int member, uint64_t call, size_t from, void* buf, size_t bytes,
                          size_t* referred) {
  const Place p = posted(member, call);
  if (p.head == nullptr) return Read::kNotYet;
  Reference ref;
  std::memcpy(&ref, p.payload, sizeof ref);
  const bool by_reference = p.head->bytes == kByReference || p.head->bytes == kByReferenceShared;
  *referred = by_reference ? ref.bytes : 0;
  const size_t n = from < *referred ? std::min(bytes, *referred - from) : 0;
  const pid_t owner = node_->segment().peer(locals_[size_t(member)])->pid;
  const uint64_t address = reinterpret_cast<uint64_t>(buf);
  bool ok = true;
  // The whole of a shared post, large enough to split: the poster may write parts of it.
  shm::CopySlot* slot = p.head->bytes == kByReferenceShared && from == 0 && n == ref.bytes &&
                                shared_read_min_ != 0 && n >= shared_read_min_
                            ? shared_slot(p.payload, rank_)
                            : nullptr;
  if (slot != nullptr && shm::offer_split_copy(slot, ref.address, address, n)) {
    tools::g_counters.coll_reference_bytes_read.add(shm::copy_chunks(slot, true, owner));
    ok = !shm::split_copy_failed(slot);
  } else if (n > 0) {
    ok = shm::cross_memory_copy(owner, true, address, ref.address + from, n);
    tools::g_counters.coll_reference_bytes_read.add(n);
  }
  fetched(member, p);
  return ok ? Read::kDone : Read::kFailed;
}

bool NodeRegion::can_post(uint64_t call, size_t bytes) const {
  return place(rank_, call, bytes).head->readers_left.load(std::memory_order_acquire) == 0;
}

bool NodeRegion::has_posted(int member, uint64_t call) const {
  return posted(member, call).head != nullptr;
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
        std::make_unique<NodeRegion>(node, index, comm.rank, comm.world_ranks,
                                     size_t(setting_long("WEFT_SHM_COLL_SHARED_READ_MIN", 65536)));
  return Status::success();
}

}  // namespace weft::coll
