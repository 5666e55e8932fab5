// Broadcast as a binomial scatter followed by a ring allgather (van de Geijn; Barnett et al.,
// "Interprocessor collective communication library (InterCom)", 1994; as in Thakur, Rabenseifner
// & Gropp 2005): the message is cut into p blocks, the root scatters them down a binomial tree,
// and a ring allgather gives every rank all of them.
// Cost: (ceil(log2 p) + p - 1)·α + 2·((p-1)/p)·nβ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const std::vector<Block> blocks = even_blocks(a.bytes, a.elem_size, a.size);
  const Ring ring{to_relative(a.rank, a.root, a.size), a.size, a.root};
  const StepId scattered = append_binomial_scatter(
      s, ring, blocks, recv_buf(), recv_buf(blocks[size_t(ring.self)].offset), kNoStep);
  append_ring_allgather(s, ring, recv_buf(), blocks, Pipeline{}, scattered);
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.bytes);
  return {ceil_log2(a.size) + p - 1, 2 * (p - 1) / p * n, 0};
}

}  // namespace

extern const Algorithm kBcastScatterAllgather{"scatter_allgather", CollKind::kBcast, nullptr,
                                              cost, build};

}  // namespace weft::coll
