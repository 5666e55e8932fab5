// Pieces the node-region algorithms (*_shm.cpp) share: whether a call fits the region, and the
// rank-order fold of every rank's post that the region reduce and allreduce end with.
#pragma once
#include <span>

#include "coll/algorithm.hpp"

namespace weft::coll {

// Whether the call can go through the node region with at most `bytes_per_rank` in one post:
// an intracommunicator of two or more ranks that has a region with that much room.
bool region_takes(const CollArgs& a, size_t bytes_per_rank);

// Fetches the post of every other rank (a.bytes each; with `part`, only that block of each
// post), and folds all contributions into kRecv in rank order, ((x0 op x1) op x2) ..., as the
// linear reduce does, so any op is right and every rank that folds gets the same bits. This
// rank's own input is kSend (its block `part`). kRecv is written only after `posted` (this
// rank's post of kSend, which may alias kRecv) has completed.
void fold_posts(const CollArgs& a, Schedule& s, StepId posted, const Block* part = nullptr);
// The same where folds_arrivals: every rank brings its vector to one arrival (Schedule::arrive)
// instead of a post, so each writes one line of its own and reads the others', where fetching
// posts also updates every post's count of readers.
void fold_arrivals(const CollArgs& a, Schedule& s);
// Whether a fold of every rank's `bytes` on `ranks` ranks goes through an arrival: up to
// kArrivalBytes, on 3 ranks or more. Measured (8-byte allreduce, 2-core machine): on 4 and 8
// ranks 15-30% faster than posts; on 2, 10% slower (0.23 against 0.20 µs).
inline bool folds_arrivals(size_t bytes, int ranks) { return bytes <= kArrivalBytes && ranks > 2; }
// Whether an allgather of `blocks` gathers through an arrival, each rank bringing its block:
// blocks of one size of at most kArrivalBytes, in rank order without gaps, on 3 ranks or more
// (as folds_arrivals).
bool gathers_arrivals(std::span<const Block> blocks);
// Their cost: one hand-over, the fetched and copied bytes, and (p-1)·n reduced.
Cost fold_cost(const CollArgs& a);

}  // namespace weft::coll
