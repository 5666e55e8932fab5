// Ring allreduce (Patarasuk & Yuan 2009): a ring reduce-scatter leaves block i of the sum at rank
// i, then a ring allgather hands every block to every rank. Both move the vector in pieces over
// several lanes, so long vectors pipeline and scratch stays bounded. Commutative ops only.
// Cost: 2(p-1)·α + 2·((p-1)/p)·nβ + ((p-1)/p)·nγ.
#include <algorithm>

#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return a.commutative; }

void build(const CollArgs& a, Schedule& s) {
  const std::vector<Block> blocks = even_blocks(a.bytes, a.elem_size, a.size);
  const Pipeline pipe = pipeline_for(a, blocks[0].bytes);
  const Ring ring{a.rank, a.size, 0};
  const StepId reduced =
      append_ring_reduce_scatter(s, ring, send_buf(), blocks, recv_buf(blocks[size_t(a.rank)].offset),
                                 pipe, a.in_place, kNoStep);
  append_ring_allgather(s, ring, recv_buf(), blocks, pipe, reduced);
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.bytes);
  return {2 * (p - 1), 2 * n * (p - 1) / p, n * (p - 1) / p};
}

}  // namespace

extern const Algorithm kAllreduceRing{"ring", CollKind::kAllreduce, accepts, cost, build};

}  // namespace weft::coll
