// A collective schedule: the steps one rank performs (send, receive, reduce, copy) and the
// dependencies between them. Algorithms build schedules (coll/algorithms/); the executor runs
// them blocking, nonblocking or persistent; the unit tests simulate them for every size.
//
// Message matching rule: messages travel on lanes (0..kLanes-1). Between two ranks, the k-th send
// from A to B on lane l in A's schedule meets the k-th receive from A on lane l in B's schedule.
// The executor keeps that order (it starts the sends to one peer on one lane, and posts the
// receives, in step order), so builders add a pair's messages in the same order on both sides
// and need no tags of their own. Lanes let independent pipeline segments overtake each other.
//
// Node-region steps (coll/node_region.hpp) move data through a shared-memory area of the
// communicator instead of messages: a rank posts at most one buffer per call, which a given
// number of the call's other ranks fetch; a fetch waits until its peer has posted in this call.
// A post by reference puts only the buffer's address there: its fetches read the poster's memory
// directly (process_vm_readv), and the post completes once all of them have. Such a call may
// post twice per rank (set_region_post). A call that every rank waits through (a barrier, a
// small allreduce or allgather) may instead arrive (arrive): each rank writes its bytes in a
// line of its own and gathers everyone's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace weft::coll {

// Scratch regions, and the memory the executor stages messages in, start on 64-byte boundaries.
inline constexpr size_t kScratchAlign = 64;
inline size_t scratch_aligned(size_t bytes) {
  return (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
}

// The buffers a schedule refers to; the executor binds them to addresses when it starts.
enum class Buf : uint8_t { kSend, kRecv, kScratch };

struct BufRef {
  Buf buf = Buf::kRecv;
  size_t offset = 0;
  BufRef at(size_t more) const { return BufRef{buf, offset + more}; }
};

inline BufRef send_buf(size_t offset = 0) { return {Buf::kSend, offset}; }
inline BufRef recv_buf(size_t offset = 0) { return {Buf::kRecv, offset}; }

enum class StepKind : uint8_t { kSend, kRecv, kReduce, kCopy, kJoin, kPost, kFetch, kArrive };

// Steps whose data leaves this rank from `src` (a send, a post), or arrives into `dst` from a
// peer (a receive, a fetch).
inline bool outgoing(StepKind k) { return k == StepKind::kSend || k == StepKind::kPost; }
inline bool incoming(StepKind k) { return k == StepKind::kRecv || k == StepKind::kFetch; }

inline constexpr int kLaneBits = 3;
inline constexpr int kLanes = 1 << kLaneBits;

// The most bytes a rank brings to an arrival (Schedule::arrive; shm::kArrivalPayload).
inline constexpr size_t kArrivalBytes = 48;

// A fetch of a whole post (at most `bytes`; more is a truncation), not of a part of it.
inline constexpr size_t kWholePost = SIZE_MAX;

using StepId = uint32_t;
inline constexpr StepId kNoStep = UINT32_MAX;  // "no dependency": ignored where deps are given

struct Step {
  StepKind kind = StepKind::kJoin;
  uint8_t lane = 0;  // kSend/kRecv: the ordered stream the message travels on; kPost/kFetch:
                     // which of the call's posts of a rank (0 or 1)
  int peer = -1;     // kSend/kRecv/kFetch: rank in the communicator; kPost: how many fetch it;
                     // kArrive: how many ranks arrive
  BufRef src, dst;  // send, post: src; recv, fetch: dst; reduce: dst = src op dst; copy: src -> dst
  size_t bytes = 0;  // bytes moved (reduce: bytes of elements combined; arrive: each rank's)
  uint32_t dep_begin = 0, dep_end = 0;  // this step's dependencies in Schedule::deps()
  size_t from = kWholePost;             // kFetch: where in the peer's post its bytes start
  bool by_reference = false;            // kPost: posts the address only; kFetch: reads such a post
};

class Schedule {
 public:
  using Deps = std::initializer_list<StepId>;

  // Empties the schedule, keeping its storage (an operation rebuilt for other arguments).
  void clear();

  // Messages added from now on travel on `lane` (0 until changed; taken modulo kLanes).
  void set_lane(int lane) { lane_ = uint8_t(lane % kLanes); }

  StepId send(int peer, BufRef src, size_t bytes, Deps deps = {}) {
    return add({StepKind::kSend, lane_, peer, src, {}, bytes}, list(deps));
  }
  StepId recv(int peer, BufRef dst, size_t bytes, Deps deps = {}) {
    return add({StepKind::kRecv, lane_, peer, {}, dst, bytes}, list(deps));
  }
  // dst = src op dst elementwise over `bytes`; `src` holds the lower ranks' contribution.
  StepId reduce(BufRef src, BufRef dst, size_t bytes, Deps deps = {}) {
    return add({StepKind::kReduce, 0, -1, src, dst, bytes}, list(deps));
  }
  StepId copy(BufRef src, BufRef dst, size_t bytes, Deps deps = {}) {
    return add({StepKind::kCopy, 0, -1, src, dst, bytes}, list(deps));
  }
  // Posts `bytes` of `src` in the node region for this call, to be fetched by `readers` ranks
  // (at most one post per call and rank).
  StepId post(BufRef src, size_t bytes, int readers, Deps deps = {}) {
    return region_step(StepKind::kPost, readers, src, {}, bytes, kWholePost, false, deps);
  }
  // Copies what rank `peer` posts in this call (`bytes`) to `dst`, once it has.
  StepId fetch(int peer, BufRef dst, size_t bytes, Deps deps = {}) {
    return fetch_part(peer, kWholePost, dst, bytes, deps);
  }
  // Copies `bytes` of what rank `peer` posts in this call, from `from` bytes into its post (which
  // must hold them), to `dst`.
  StepId fetch_part(int peer, size_t from, BufRef dst, size_t bytes, Deps deps = {}) {
    return region_step(StepKind::kFetch, peer, {}, dst, bytes, from, false, deps);
  }
  // Region steps added from now on concern the first (0) or second (1) post of a rank in the
  // call (0 until changed). A rank's second post waits until its first has been fetched.
  void set_region_post(int which) { region_post_ = uint8_t(which); }
  // Posts by reference the `bytes` at `src` for `fetches` fetches by other ranks (each reads
  // what it needs with fetch_reference); completes once all have read.
  StepId post_reference(BufRef src, size_t bytes, int fetches, Deps deps = {}) {
    return region_step(StepKind::kPost, fetches, src, {}, bytes, kWholePost, true, deps);
  }
  // Reads what rank `peer` posts by reference in this call (at most `bytes`) to `dst`.
  StepId fetch_reference(int peer, BufRef dst, size_t bytes, Deps deps = {}) {
    return fetch_reference_part(peer, kWholePost, dst, bytes, deps);
  }
  // Reads `bytes` of it, from `from` bytes into it (which must hold them), to `dst`.
  StepId fetch_reference_part(int peer, size_t from, BufRef dst, size_t bytes, Deps deps = {}) {
    return region_step(StepKind::kFetch, peer, {}, dst, bytes, from, true, deps);
  }
  // Arrives through the node region at a call every rank of the `ranks` waits through
  // (coll/node_region.hpp try_arrive), bringing `bytes` of `src` (at most kArrivalBytes);
  // complete once every rank has arrived, with each one's bytes copied to `dst` + rank·bytes.
  // It depends on nothing, whatever the floor, so it starts with the run: the ranks number
  // their arrivals in the order of their calls. At most one per schedule. A barrier:
  // arrive(ranks).
  StepId arrive(int ranks, BufRef src = {}, size_t bytes = 0, BufRef dst = {});
  // A step that does nothing but complete once its dependencies have: joins several steps
  // into one dependency.
  StepId join(Deps deps) { return add({}, list(deps)); }
  StepId join(std::span<const StepId> deps);
  // All steps added so far, as one dependency (the seam when composing two algorithms).
  StepId join_all();

  // Appends every step of `part` (a schedule of the same rank built on its own), its kSend and
  // kRecv moved to `send_as` and `recv_as` and its scratch to a fresh region, each step also
  // after `after`; lanes are kept, and peers too unless `peers` is given: then `part` was built
  // for a subset of the ranks, and its peer i is rank peers[i]. Returns a step that completes
  // with all of them. `part` has no node-region steps (a region belongs to one communicator).
  StepId append(const Schedule& part, BufRef send_as, BufRef recv_as, StepId after,
                std::span<const int> peers = {});

  // Reserves `bytes` of scratch memory (64-byte aligned); returns a reference to it.
  BufRef scratch(size_t bytes);

  // Every step added from now on also depends on `floor` (kNoStep: none); this is how a
  // composed algorithm runs a second whole algorithm after a first.
  void set_floor(StepId floor) { floor_ = floor; }

  // Adds `dep` to the dependencies of the most recently added step (for loops that gather a
  // variable number of dependencies).
  void also_after(StepId dep);

  size_t size() const { return steps_.size(); }
  const Step& step(StepId id) const { return steps_[id]; }
  const std::vector<Step>& steps() const { return steps_; }
  std::span<const StepId> deps_of(const Step& s) const {
    return {deps_.data() + s.dep_begin, deps_.data() + s.dep_end};
  }
  size_t scratch_bytes() const { return scratch_bytes_; }

 private:
  static std::span<const StepId> list(Deps deps) { return {deps.begin(), deps.size()}; }
  StepId add(Step s, std::span<const StepId> deps);
  // A post or fetch of the current region post (set_region_post).
  StepId region_step(StepKind kind, int peer, BufRef src, BufRef dst, size_t bytes, size_t from,
                     bool by_reference, Deps deps) {
    Step step{kind, region_post_, peer, src, dst, bytes};
    step.from = from;
    step.by_reference = by_reference;
    return add(step, list(deps));
  }
  std::vector<Step> steps_;
  std::vector<StepId> deps_;
  size_t scratch_bytes_ = 0;
  uint8_t lane_ = 0;
  uint8_t region_post_ = 0;
  StepId floor_ = kNoStep;
};

}  // namespace weft::coll
