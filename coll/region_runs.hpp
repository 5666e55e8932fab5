// One rank's part of a call through a communicator's node region (coll/node_region.hpp), run
// step by step without a schedule: the arrivals, posts, fetches and rank-order folds of the short
// paths (coll/region_short.hpp). advance() goes as far as it can and says whether it is done;
// ready() (read only) says whether it could go further now, for a wait that may block.
#pragma once
#include <cstring>
#include <string>
#include <utility>

#include "coll/node_region.hpp"
#include "runtime/op/op.hpp"
#include "runtime/status.hpp"
#include "runtime/world.hpp"

namespace weft::coll {

// A post whose size is not what this rank expects: the ranks' type signatures differ.
[[gnu::cold]] inline Status wrong_size(int member, size_t posted, size_t expected) {
  return Status::error(MPI_ERR_TRUNCATE,
                       "rank " + std::to_string(member) + " gave " + std::to_string(posted) +
                           " bytes where this rank expects " + std::to_string(expected) +
                           " (the ranks' type signatures differ)");
}

// A rank's post of `bytes` of `from` in a region call, for `readers` ranks (0: it posts
// nothing); made as soon as its place is free of an earlier call's post.
struct Post {
  const void* from = nullptr;
  size_t bytes = 0;
  int readers = 0;
  bool done = false;

  bool advance(NodeRegion& region, uint64_t call) {
    if (!done) done = readers == 0 || region.try_post(call, from, bytes, readers);
    return done;
  }
  bool ready(const NodeRegion& region, uint64_t call) const {
    return readers == 0 || region.can_post(call, bytes);
  }
};

// One rank's part of a call through the region's arrival lines (NodeRegion::try_arrive): its
// arrival at number `number` with `bytes` of `data`, then, once every rank has arrived, every
// rank's bytes copied to `out` + rank·bytes.
struct Arrival {
  NodeRegion& region;
  uint64_t number;
  const void* data = nullptr;
  size_t bytes = 0;
  void* out = nullptr;
  bool arrived = false;
  Status outcome = Status::success();

  bool advance() {
    if (!arrived) arrived = region.try_arrive(number, data, bytes);
    OddArrival odd;
    if (!arrived || !region.try_complete(number, out, bytes, &odd)) return false;
    if (odd.member >= 0) outcome = wrong_size(odd.member, odd.bytes, bytes);
    return true;
  }
  bool ready() const {
    return arrived ? region.all_arrived(number) : region.arrival_complete(number - 1);
  }
};

// One rank's part of a region call: its post, then its fetches, in rank order: from every
// other member, or from `only`, each into `into` + member·stride; each a whole post, or
// (`part`) `bytes` from `from` into it.
struct Moves {
  NodeRegion& region;
  uint64_t call;
  int rank, size;
  Post post = {};
  int only = -1;
  unsigned char* into = nullptr;
  size_t stride = 0, bytes = 0;
  bool part = false;
  size_t from = 0;
  int next = 0;  // the member to fetch from next
  Status outcome = Status::success();

  bool fetches_from(int m) const { return m != rank && (only < 0 || m == only); }

  bool advance() {
    if (!post.advance(region, call)) return false;
    for (; next < size; ++next) {
      if (!fetches_from(next)) continue;
      size_t got = 0;
      if (!region.try_fetch(next, call, from, into + stride * size_t(next), bytes, &got))
        return false;
      if (!fetch_matches(got, part, from, bytes)) outcome = wrong_size(next, got, from + bytes);
    }
    return true;
  }

  bool ready() const {
    if (!post.done) return post.ready(region, call);
    int m = next;
    while (m < size && !fetches_from(m)) ++m;
    return m < size && region.has_posted(m, call);
  }
};

// One rank's part of a region reduction: its post (of `mine`, or none), then, where it
// folds, every member's contribution (its whole post, or `bytes` from `from` into it) in rank
// order, ((x0 op x1) op x2) ..., as
// coll/algorithms/region_parts.cpp builds it: the partial result and the next contribution
// alternate between the two halves of `space`, and the kernel folds the first into the second
// (inout = in op inout), so the bits are those of the region schedules.
struct Fold {
  NodeRegion& region;
  uint64_t call;
  int rank, size;
  const unsigned char* mine;
  Post post = {};
  size_t from, bytes;  // what is folded of each post (every rank posts post.bytes)
  bool folds;
  ReduceKernel kernel;
  size_t count;
  unsigned char* partial;
  unsigned char* arriving;
  int next = 0;  // the member whose contribution is folded next
  Status outcome = Status::success();

  bool advance() {
    if (!post.advance(region, call)) return false;
    if (!folds) return true;
    for (; next < size; ++next) {
      unsigned char* into = next == 0 ? partial : arriving;
      if (next == rank) {
        std::memcpy(into, mine + from, bytes);
      } else {
        size_t got = 0;
        if (!region.try_fetch(next, call, from, into, bytes, &got)) return false;
        if (got != post.bytes) outcome = wrong_size(next, got, post.bytes);
      }
      if (next > 0) {
        kernel(partial, arriving, count);
        std::swap(partial, arriving);
      }
    }
    return true;
  }

  bool ready() const {
    if (!post.done) return post.ready(region, call);
    return folds && next < size && (next == rank || region.has_posted(next, call));
  }
};

// Runs `r` to its end, driving progress meanwhile; its outcome.
template <typename Run>
Status run(Run& r) {
  world().progress.wait_until([&r] { return r.advance(); }, [&r] { return r.ready(); });
  return r.outcome;
}

}  // namespace weft::coll
