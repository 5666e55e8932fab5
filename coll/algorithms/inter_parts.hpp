// The local phases of intercommunicator collectives: an intracommunicator algorithm run among
// the local group (peers 0..size-1 of the inter schedule, coll/algorithm.hpp) and appended to
// the inter schedule after a given step, with its buffers placed where the caller says.
#pragma once
#include "coll/algorithm.hpp"

namespace weft::coll {

// The local group's view of an inter call (part_args): same rank, size, bytes, element and op
// properties, root 0.
CollArgs local_args(const CollArgs& a, CollKind kind);

// Local rank 0's `out` gets the reduction of every local rank's `bytes` of `input`.
StepId append_local_reduce(Schedule& s, const CollArgs& a, BufRef input, BufRef out, size_t bytes,
                           StepId after);
// `bytes` at local rank 0's `buf` go to every local rank's `buf`.
StepId append_local_bcast(Schedule& s, const CollArgs& a, BufRef buf, size_t bytes, StepId after);
// Completes once every local rank has started it.
StepId append_local_barrier(Schedule& s, const CollArgs& a, StepId after);
// Local rank 0's `input` holds blocks[i] (offsets into it) for every local rank i; rank i's
// `out` gets its block.
StepId append_local_scatter(Schedule& s, const CollArgs& a, BufRef input, BufRef out, StepId after);

// Gather(v) (`to_root`) and scatter(v) on an intercommunicator, linear: the root receives (sends)
// block i from (to) remote rank i; a rank of the other group sends (receives) its `bytes`.
void build_inter_rooted_linear(const CollArgs& a, Schedule& s, bool to_root);
Cost inter_rooted_linear_cost(const CollArgs& a);

}  // namespace weft::coll
