// Recursive-doubling allgather (Thakur, Rabenseifner & Gropp 2005): for distance 1, 2, 4, ...
// each rank swaps everything it has with the partner at that distance, doubling what it holds.
// Non-power-of-two sizes fold as in recursive halving: the even rank of each of the first
// 2·(p - 2^k) pairs gives its block to the odd one, sits out, and gets everything at the end.
// Blocks must lie back to back; when they do not (allgatherv displacements), the exchange runs
// in scratch and the blocks are copied out. Cost: log2(p)·α + ((p-1)/p)·nβ (+ 2α + nβ folded).
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {

StepId append_doubling_allgather(Schedule& s, const CollArgs& a, std::span<const Block> blocks,
                                 BufRef acc, StepId after, std::optional<BufRef> own) {
  const HalvingGroup g(a.size);
  const Block all = halving_span(g, blocks, 0, g.pof2);
  const int n = g.new_rank(a.rank);
  if (n < 0) return s.recv(a.rank + 1, acc.at(all.offset), all.bytes, {after});
  std::vector<StepId> received{after}, steps;
  for (int d = 1; d < g.pof2; d *= 2) {
    const int partner = n ^ d;
    const int mine = n & ~(d - 1), theirs = partner & ~(d - 1);
    const Block out = halving_span(g, blocks, mine, mine + d);
    const Block in = halving_span(g, blocks, theirs, theirs + d);
    const StepId got = s.recv(g.old_rank(partner), acc.at(in.offset), in.bytes, {after});
    if (own && d == 1 && g.block_count(n) == 1) {  // out is this rank's own block, ready at start
      steps.push_back(s.send(g.old_rank(partner), *own, out.bytes, {}));
    } else {
      steps.push_back(s.send(g.old_rank(partner), acc.at(out.offset), out.bytes, {}));
      for (StepId r : received) s.also_after(r);
    }
    received.push_back(got);
  }
  if (a.rank < 2 * g.rem) {
    steps.push_back(s.send(a.rank - 1, acc.at(all.offset), all.bytes, {}));
    for (StepId r : received) s.also_after(r);
  }
  steps.insert(steps.end(), received.begin(), received.end());
  return s.join(steps);
}

namespace {

void build(const CollArgs& a, Schedule& s) {
  const bool direct = back_to_back(a.blocks);
  const size_t base = a.blocks[0].offset;
  std::vector<Block> rel = a.blocks;
  size_t at = 0;
  for (Block& b : rel) {
    b.offset = at;
    at += b.bytes;
  }
  const BufRef work = direct ? recv_buf(base) : s.scratch(at);
  const Block own = rel[size_t(a.rank)];
  StepId ready = s.copy(send_buf(), work.at(own.offset), own.bytes);
  const HalvingGroup g(a.size);
  if (a.rank < 2 * g.rem) {
    if (a.rank % 2 == 0) {
      ready = s.send(a.rank + 1, work.at(own.offset), own.bytes, {ready});
    } else {
      const Block theirs = rel[size_t(a.rank - 1)];
      ready = s.join({ready, s.recv(a.rank - 1, work.at(theirs.offset), theirs.bytes)});
    }
  }
  const StepId done = append_doubling_allgather(s, a, rel, work, ready, send_buf());
  if (direct) return;
  for (int k = 0; k < a.size; ++k) {
    s.copy(work.at(rel[size_t(k)].offset), recv_buf(a.blocks[size_t(k)].offset),
           rel[size_t(k)].bytes, {done});
  }
}

Cost cost(const CollArgs& a) {
  const HalvingGroup g(a.size);
  const double n = double(a.total_block_bytes()), q = g.pof2;
  const double fold = g.rem > 0 ? 1 : 0;
  return {double(ceil_log2(g.pof2)) + 2 * fold, n * (q - 1) / q + fold * (n + n / a.size), 0};
}

}  // namespace

extern const Algorithm kAllgatherRecursiveDoubling{"recursive_doubling", CollKind::kAllgather,
                                                   nullptr, cost, build};

}  // namespace weft::coll
