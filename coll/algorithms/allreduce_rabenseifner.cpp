// Rabenseifner's allreduce (Rabenseifner 2004; Thakur, Rabenseifner & Gropp 2005): a
// recursive-halving reduce-scatter followed by a recursive-doubling allgather, both over the
// power-of-two group after the extra ranks fold in. Commutative ops only; good for long vectors
// on few ranks. Cost: 2·log2(p)·α + 2·((p-1)/p)·nβ + ((p-1)/p)·nγ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return a.commutative; }

void build(const CollArgs& a, Schedule& s) {
  const std::vector<Block> blocks = even_blocks(a.bytes, a.elem_size, a.size);
  const std::optional<BufRef> input = a.in_place ? std::nullopt : std::optional(send_buf());
  const StepId reduced = append_halving_reduce_scatter(s, a, blocks, input, recv_buf(), kNoStep);
  append_doubling_allgather(s, a, blocks, recv_buf(), reduced);
}

Cost cost(const CollArgs& a) {
  const HalvingGroup g(a.size);
  const double n = double(a.bytes), q = g.pof2, fold = g.rem > 0 ? 1 : 0;
  return {2.0 * ceil_log2(g.pof2) + 2 * fold, 2 * n * (q - 1) / q + 2 * fold * n,
          n * (q - 1) / q + fold * n};
}

}  // namespace

extern const Algorithm kAllreduceRabenseifner{"rabenseifner", CollKind::kAllreduce, accepts, cost,
                                              build};

}  // namespace weft::coll
