// Rabenseifner's reduce (Rabenseifner, "Optimization of collective reduction operations", 2004;
// Thakur, Rabenseifner & Gropp 2005): a recursive-halving reduce-scatter leaves each rank of the
// power-of-two group with one reduced block, then a binomial gather (recursive halving in
// reverse) collects the blocks at the root. Commutative ops only; good for long vectors.
// Cost: 2·log2(p)·α + 2·((p-1)/p)·nβ + ((p-1)/p)·nγ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return a.commutative; }

void build(const CollArgs& a, Schedule& s) {
  const std::vector<Block> blocks = even_blocks(a.bytes, a.elem_size, a.size);
  const BufRef acc = a.rank == a.root ? recv_buf() : s.scratch(a.bytes);
  const bool acc_is_input = a.rank == a.root && a.in_place;
  const std::optional<BufRef> input = acc_is_input ? std::nullopt : std::optional(send_buf());
  const StepId reduced = append_halving_reduce_scatter(s, a, blocks, input, acc, kNoStep);
  const HalvingGroup g(a.size);
  // A folded root is stood for by its partner, which forwards the result at the end.
  const int gatherer = g.new_rank(a.root) >= 0 ? a.root : a.root + 1;
  const int target = g.new_rank(gatherer);
  const int n = g.new_rank(a.rank);
  if (n < 0) {
    if (a.rank == a.root) s.recv(gatherer, recv_buf(), a.bytes, {reduced});
    return;
  }
  std::vector<StepId> have{reduced};
  for (int d = 1; d < g.pof2; d *= 2) {
    const int partner = n ^ d;
    if ((n & d) != (target & d)) {  // hand over everything held so far and stop
      const int first = n & ~(d - 1);
      const Block mine = halving_span(g, blocks, first, first + d);
      s.send(g.old_rank(partner), acc.at(mine.offset), mine.bytes, {});
      for (StepId h : have) s.also_after(h);
      return;
    }
    const int first = partner & ~(d - 1);
    const Block theirs = halving_span(g, blocks, first, first + d);
    have.push_back(s.recv(g.old_rank(partner), acc.at(theirs.offset), theirs.bytes, {reduced}));
  }
  if (gatherer != a.root) {
    s.send(a.root, acc, a.bytes, {});
    for (StepId h : have) s.also_after(h);
  }
}

Cost cost(const CollArgs& a) {
  const HalvingGroup g(a.size);
  const double n = double(a.bytes), q = g.pof2, fold = g.rem > 0 ? 1 : 0;
  return {2.0 * ceil_log2(g.pof2) + 2 * fold, 2 * n * (q - 1) / q + 2 * fold * n,
          n * (q - 1) / q + fold * n};
}

}  // namespace

extern const Algorithm kReduceRabenseifner{"rabenseifner", CollKind::kReduce, accepts, cost,
                                           build};

}  // namespace weft::coll
