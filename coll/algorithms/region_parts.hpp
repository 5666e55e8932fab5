// Pieces the node-region algorithms (*_shm.cpp) share: whether a call fits the region, and the
// rank-order fold of every rank's post that the region reduce and allreduce end with.
#pragma once
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
// Its cost: one hand-over, the fetched and copied bytes, and (p-1)·n reduced.
Cost fold_cost(const CollArgs& a);

}  // namespace weft::coll
