// The job's shared-memory segment on one node: a control line per local rank (its pid and
// whether it sleeps), for every ordered pair of local ranks a ring (pt2pt/shm/ring.hpp) and a
// copy slot, and a number of regions that communicators claim for their collectives
// (coll/node_region.hpp).
// Lifecycle: the node's first rank creates it before the job's start-up fence, the others map
// it after that fence, and once all have it mapped the name is unlinked; the launcher also
// removes the name when the job ends on the node (launcher/node_session.cpp), so a job killed
// during start-up leaves nothing in /dev/shm either.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "pt2pt/shm/ring.hpp"
#include "runtime/status.hpp"

namespace weft::shm {

// One local rank's shared words.
struct alignas(kCell) PeerControl {
  std::atomic<uint32_t> sleeping{0};  // blocked in poll(2): senders must wake it
  int32_t pid = 0;
  uint64_t probe_address = 0;  // a word others read with process_vm_readv to test CMA
};

// A large message that its sender and receiver copy together (pt2pt/shm/split_copy.hpp): the
// receiver fills it in and both claim chunks until none are left. One per ordered pair.
struct alignas(kCell) CopySlot {
  std::atomic<uint32_t> busy{0};  // set by the receiver, cleared by the sender when done
  std::atomic<uint32_t> failed{0};
  uint64_t source = 0;       // the sender's buffer
  uint64_t destination = 0;  // the receiver's buffer
  uint64_t bytes = 0;
  uint64_t chunk_bytes = 0;
  uint64_t chunks = 0;
  alignas(kCell) std::atomic<uint64_t> next_chunk{0};
  alignas(kCell) std::atomic<uint64_t> chunks_done{0};
};

// A region's first line: whether a communicator holds it, and how many of its ranks still use
// it (the last to let go frees it).
struct alignas(kCell) RegionHeader {
  std::atomic<uint32_t> claimed{0};
  std::atomic<uint32_t> users{0};
};

// Slots each rank has in a region: calls k and k + kRegionSlots share one, so a rank can post
// that many calls ahead of the slowest rank fetching them (a broadcast root runs ahead).
inline constexpr int kRegionSlots = 8;
// Lines each rank has besides, for posts of at most kLinePayload bytes (barriers, small
// vectors): a cache line each, so there can be many and a small broadcast's root runs further
// ahead (on oversubscribed cores, ranks then take turns less often).
inline constexpr int kRegionLines = 64;

// What a post says of itself: in a slot's first line, or at the start of a line.
struct PostHeader {
  std::atomic<uint64_t> call{0};          // the call whose post it holds (0: none yet)
  std::atomic<uint32_t> readers_left{0};  // ranks yet to fetch it
  uint32_t bytes = 0;                     // bytes posted
};

// One rank's post in a region for calls whose number is the same modulo kRegionSlots, followed
// by `region_payload` bytes.
struct alignas(kCell) RegionSlot {
  PostHeader head;
};

// One rank's small post for calls whose number is the same modulo kRegionLines.
inline constexpr size_t kLinePayload = kCell - sizeof(PostHeader);
struct alignas(kCell) RegionLine {
  PostHeader head;
  unsigned char payload[kLinePayload];
};
static_assert(sizeof(RegionLine) == kCell);

// One rank's arrival at a call of a region that every rank waits through (a barrier, a small
// allreduce or allgather: coll/node_region.hpp try_arrive), written by that rank only: the call's
// arrival number, and the bytes it brings. Each rank has two, for odd and even numbers. The ranks'
// pairs lie kArrivalStride lines apart, so no two ranks' lines share an aligned pair of lines
// (which the cores' prefetchers fetch together: one rank's store would take the other's line
// from its readers too).
inline constexpr size_t kArrivalPayload = kCell - 16;
struct alignas(kCell) RegionArrival {
  std::atomic<uint64_t> number{0};
  uint32_t bytes = 0;
  unsigned char payload[kArrivalPayload];
};
static_assert(sizeof(RegionArrival) == kCell);
inline constexpr size_t kArrivalStride = 4;  // in lines

struct alignas(kCell) SegmentHeader {
  uint64_t magic = 0;
  uint32_t local_size = 0;
  uint32_t ring_cells = 0;
  uint32_t region_count = 0;
  uint32_t region_payload = 0;           // bytes a region slot holds (a multiple of kCell)
  std::atomic<uint32_t> attached{0};     // ranks that have mapped it
  std::atomic<uint32_t> checked{0};      // ranks that have tested cross-memory attach
  std::atomic<uint32_t> cma_refused{0};  // some rank could not read a peer's memory
};

class Segment {
 public:
  // Before the start-up fence, on the node's first rank: creates the named segment sized for
  // `local_size` ranks with rings of `ring_bytes` (a power of two, at least 4 KiB), and
  // `regions` regions whose slots hold `region_payload` bytes (rounded up to a cache line).
  static Status create(const std::string& name, int local_size, size_t ring_bytes, int regions,
                       size_t region_payload);
  // After the fence, on every local rank (`local` is its index among them): maps the segment,
  // waits until all local ranks have, tests cross-memory attach to the next one, and unlinks
  // the name. *out stays empty, with success, when the first rank could not create it (then
  // no rank of the node has it).
  static Status attach(const std::string& name, int local, int local_size,
                       std::unique_ptr<Segment>* out);
  ~Segment();
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  int local_size() const { return int(header_->local_size); }
  size_t ring_cells() const { return header_->ring_cells; }
  bool cma_allowed() const { return header_->cma_refused.load() == 0; }
  PeerControl* peer(int local) const { return peers_ + local; }
  // The ring from local rank `from` to local rank `to`.
  RingControl* ring_control(int from, int to) const { return rings_ + ring_index(from, to); }
  unsigned char* ring_cells(int from, int to) const {
    return cells_ + ring_index(from, to) * ring_cells() * kCell;
  }
  CopySlot* copy_slot(int from, int to) const { return slots_ + ring_index(from, to); }
  // Maps the pages of the rings local rank `local` writes and reads into this process now, so
  // that the first lap of messages through them takes no page fault on its way (a fault costs
  // microseconds; a 256 KiB ring is 64 pages). Leaves their contents as they are.
  void prefault_rings(int local) const;
  // The bytes of one region for `local_size` ranks and slots of `payload` bytes.
  static size_t region_bytes(size_t local_size, size_t payload) {
    return kCell + local_size *
                       (kRegionSlots * (kCell + payload) + (kRegionLines + kArrivalStride) * kCell);
  }
  int region_count() const { return int(header_->region_count); }
  size_t region_payload() const { return header_->region_payload; }
  RegionHeader* region(int index) const {
    return reinterpret_cast<RegionHeader*>(regions_ + size_t(index) * region_bytes());
  }
  // Rank `member`'s slot `which` (0 .. kRegionSlots-1) in region `index`; its payload follows.
  RegionSlot* region_slot(int index, int member, int which) const {
    const size_t slot = kCell + region_payload();
    return reinterpret_cast<RegionSlot*>(regions_ + size_t(index) * region_bytes() + kCell +
                                         (size_t(member) * kRegionSlots + size_t(which)) * slot);
  }
  // Rank `member`'s line `which` (0 .. kRegionLines-1) in region `index`, after all the slots.
  RegionLine* region_line(int index, int member, int which) const {
    return reinterpret_cast<RegionLine*>(region_slot(index, int(header_->local_size), 0)) +
           size_t(member) * kRegionLines + size_t(which);
  }
  // Rank `member`'s arrival line for odd (`odd` 1) or even numbers in region `index`, after all
  // the lines.
  RegionArrival* region_arrival(int index, int member, int odd) const {
    return reinterpret_cast<RegionArrival*>(region_line(index, int(header_->local_size), 0)) +
           size_t(member) * kArrivalStride + 2 * size_t(odd);
  }

 private:
  Segment() = default;
  size_t ring_index(int from, int to) const {
    return size_t(to) * header_->local_size + size_t(from);
  }
  size_t region_bytes() const { return region_bytes(header_->local_size, region_payload()); }

  unsigned char* base_ = nullptr;
  size_t bytes_ = 0;
  SegmentHeader* header_ = nullptr;
  PeerControl* peers_ = nullptr;
  RingControl* rings_ = nullptr;
  CopySlot* slots_ = nullptr;
  unsigned char* cells_ = nullptr;
  unsigned char* regions_ = nullptr;
};

}  // namespace weft::shm
