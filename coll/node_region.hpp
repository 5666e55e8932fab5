// A communicator's node region: one of the regions of the node's shared-memory segment
// (pt2pt/shm/segment.hpp), held by a communicator whose ranks all share that segment, through
// which its node-region collectives (coll/algorithms/*_shm.cpp) post and fetch data without
// messages. Every rank has shm::kRegionSlots slots and shm::kRegionLines lines (for posts of
// at most shm::kLinePayload bytes), used by calls in turn: a post of call k in a slot waits until
// every fetcher of call k - kRegionSlots has copied out (in a line, k - kRegionLines), a fetch of
// call k waits for the slot or line to name call k (the number with the run's count above it:
// persistent calls run many times).
// The communicator's rank 0 claims a free region at the program's first blocking collective on
// it and tells the others which (learn_region); the last rank to let go frees it. Posting wakes
// sleeping peers through their doorbells (pt2pt/shm/doorbell.hpp), so waits may block as in
// point-to-point. Threading: a communicator's calls, like the transport, one thread at a time.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "coll/algorithm.hpp"
#include "runtime/comm/comm.hpp"
#include "runtime/status.hpp"
#include "runtime/tools/counters.hpp"

namespace weft {
namespace shm {
class ShmTransport;
struct PostHeader;
}  // namespace shm

namespace coll {

// A call's number in the region: its sequence number on the communicator in the low 32 bits,
// and above them which run of it this is (1 for a blocking or nonblocking call; persistent
// calls run many times under one sequence number). Every rank's same run has the same number.
inline uint64_t region_call_number(uint32_t seq, uint32_t run) { return uint64_t(run) << 32 | seq; }

// The number of a rank's second post in call `call` (a call posts at most twice per rank: see
// Schedule::set_region_post). It goes in the same place as the first, once that is fetched.
inline uint64_t second_post(uint64_t call) { return call | uint64_t(1) << 63; }

// How a read of a post made by reference went.
enum class Read { kNotYet, kDone, kFailed };

// Whether a fetch of `bytes` matches a post of `posted` bytes: a whole post (`part` false) may
// be shorter than expected but not longer (that would be cut); a part, starting `from` bytes
// into the post, must be there in full.
inline bool fetch_matches(size_t posted, bool part, size_t from, size_t bytes) {
  return part ? posted >= from + bytes : posted <= bytes;
}

// A member that brought another number of bytes to an arrival than this rank (NodeRegion::
// try_complete), and how many.
struct OddArrival {
  int member = -1;
  size_t bytes = 0;
};

class NodeRegion {
 public:
  // Adopts region `index` of `node`'s segment for the communicator whose ranks are the world
  // ranks `members` (all reached through `node`); `rank` is this rank's among them. Whole reads
  // of posts by reference from `shared_read_min` bytes are shared reads (0: none; see
  // try_read).
  NodeRegion(shm::ShmTransport* node, int index, int rank, const std::vector<int>& members,
             size_t shared_read_min);
  ~NodeRegion();  // lets go of it; the last member frees it
  NodeRegion(const NodeRegion&) = delete;
  NodeRegion& operator=(const NodeRegion&) = delete;

  // The most bytes one post can hold.
  size_t capacity() const { return capacity_; }
  // Posts `bytes` of `buf` as this rank's post in call `call` (a call number in the low 32
  // bits, the run above them, never 0), for `readers` ranks to fetch; false (nothing done) while
  // the call's slot still waits for fetchers of an earlier call.
  bool try_post(uint64_t call, const void* buf, size_t bytes, int readers);
  // Copies rank `member`'s post in call `call`, from `from` bytes into it, to `buf` (at most
  // `room` bytes); false until it has posted. *posted: the bytes it posted in all.
  bool try_fetch(int member, uint64_t call, size_t from, void* buf, size_t room, size_t* posted);
  // Whether try_post (of `bytes`) and try_fetch would succeed now (read only).
  bool can_post(uint64_t call, size_t bytes) const;
  bool has_posted(int member, uint64_t call) const;

  // Posts by reference: only where `buf` lies (this process's memory) and its `bytes`, for
  // `fetches` reads by the others (a rank may read several parts); false (nothing done) while
  // the place still waits for fetchers of an earlier post. The buffer must stay as it is until
  // fetched_by_all(call) (asked once the post is made).
  bool try_post_reference(uint64_t call, const void* buf, size_t bytes, int fetches);
  bool fetched_by_all(uint64_t call) const;
  // Reads `bytes` of rank `member`'s post by reference in call `call`, from `from` bytes into
  // it, to `buf` with process_vm_readv (one of its fetches). *referred: the bytes it refers to
  // (0 for a post by copy); of a read beyond them, only what is there is made. A read of the
  // whole post is a shared read: this rank offers its buffer in the post's copy slot for it
  // and copies chunks of it, and the poster, while it waits, writes others
  // (pt2pt/shm/split_copy.hpp), so that the cores of the poster and of its readers all copy.
  Read try_read(int member, uint64_t call, size_t from, void* buf, size_t bytes, size_t* referred);
  // The poster's part of the shared reads of its post by reference in call `call`: writes the
  // chunks left unclaimed in its readers' buffers (process_vm_writev).
  void help_readers(uint64_t call);

  // Arrivals: calls that every member waits through until all have arrived, each bringing at
  // most shm::kArrivalPayload bytes that every member copies (a barrier brings none; a small
  // allreduce its vector), go through arrival lines instead of posts. Each member has two
  // (shm::RegionArrival), which only it writes: arrival number a goes in line a % 2 with its
  // bytes, and the call is complete once every member's line holds a. A member arrives at a only
  // once its own a - 1 is complete (it has copied what it needs), so when it writes line a % 2
  // again, at a + 2, every member has arrived at a + 1 and so copied out of a: no line ever
  // waits to be free, and no member updates another's line (a post that every rank fetches
  // makes each update p - 1 other members' lines).
  // The number of this rank's next arrival on the region (from 1). Every member must take its
  // numbers in the same order: in the order of the calls (an arrival step takes it when its run
  // starts; see Schedule::arrive).
  uint64_t next_arrival() { return ++arrivals_; }
  // Arrives at `a` with `bytes` of `data` and wakes the members that sleep; false (nothing done)
  // while this rank's arrival a - 1 is not complete.
  bool try_arrive(uint64_t a, const void* data, size_t bytes);
  // Completes this rank's arrival `a` once every member has arrived: copies the `bytes` each
  // brought to `out` + member·bytes; false until then. *odd: a member that brought another
  // number of bytes (nothing of its is copied; member -1: none).
  bool try_complete(uint64_t a, void* out, size_t bytes, OddArrival* odd);
  // Whether every member has arrived at `a` (read only).
  bool all_arrived(uint64_t a) const;
  // Whether this rank's arrival `a` is complete (then try_arrive(a + 1) succeeds).
  bool arrival_complete(uint64_t a) const { return completed_ >= a; }

 private:
  // Where a post lies: its header and its payload.
  struct Place {
    shm::PostHeader* head = nullptr;
    unsigned char* payload = nullptr;
  };
  // Where `member` posts `bytes` in call `call`: a line when they fit, else a slot.
  Place place(int member, uint64_t call, size_t bytes) const;
  // Where `member`'s post of call `call` is; head null until it has posted.
  Place posted(int member, uint64_t call) const;
  // Makes this rank's post in call `call`: `bytes` of `payload` in its place, followed by
  // `cleared` zero bytes, whose header states `stated` bytes, for `readers` fetches; false
  // while the place waits for fetchers.
  bool try_publish(uint64_t call, const void* payload, size_t bytes, uint32_t stated, int readers,
                   size_t cleared = 0);
  // The payload bytes of this rank's posts by reference: a Reference, and the copy slots of
  // shared reads where they are on and fit.
  size_t reference_bytes() const;
  // One fetch of `member`'s post at `p` is done: the last frees the place and wakes its owner.
  void fetched(int member, const Place& p);

  shm::ShmTransport* node_;
  int index_, rank_;
  size_t capacity_;
  size_t shared_read_min_;
  std::vector<int> locals_;  // the node index of each rank of the communicator
  uint64_t arrivals_ = 0;    // arrival numbers taken (next_arrival)
  uint64_t completed_ = 0;   // this rank's arrivals complete up to this number
};

// The cost model's last answer for one kind of call on the short paths (coll/region_short.hpp):
// whether a call of these sizes goes through the region. A loop repeats the same call, so
// asking the model once per change of size is enough.
struct RegionChoice {
  bool known = false;
  size_t bytes = 0;
  int root = 0;
  bool in_place = false;
  bool region = false;              // the model chose the node-region algorithm
  tools::Counter* calls = nullptr;  // its MPI_T count of calls
};

// What a communicator keeps about its region: learnt or not, the region if it has one, and
// what its short paths remember.
struct RegionHold {
  std::unique_ptr<NodeRegion> region;
  // By kind, for the kinds with a short path (barrier to alltoall).
  std::array<RegionChoice, size_t(CollKind::kAlltoall) + 1> choices;
  std::vector<unsigned char> fold_space;  // a short path's two partial results
};

// Learns comm's region unless already known: nothing (and nothing exchanged) where the
// communicator is an intercommunicator or internal, has one rank, has a rank this rank does
// not reach through the node's segment, or WEFT_SHM_COLL=0; otherwise its rank 0 claims a free
// region and broadcasts its number (none left: -1). Every member calls it at the same point:
// the program's blocking collectives (runtime/c_api/coll_call.cpp launch), before the call.
Status learn_region(Comm& comm);

// The room a call on `comm` has in its region (CollArgs::region_bytes): 0 without one.
inline size_t region_room(const Comm& comm) {
  const RegionHold* hold = comm.region.held.get();
  return hold != nullptr && hold->region != nullptr ? hold->region->capacity() : 0;
}

}  // namespace coll
}  // namespace weft
