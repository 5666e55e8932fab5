// Recursive-halving reduce-scatter (Thakur, Rabenseifner & Gropp, "Optimization of collective
// communication operations in MPICH", 2005). Non-power-of-two sizes: the first 2·(p - 2^k)
// ranks pair up, the even one folds its vector into the odd one and waits; the 2^k remaining
// ranks then, for distance 2^(k-1) down to 1, swap half of their current range with the partner
// at that distance and reduce the half they keep. Commutative ops only.
// Cost: log2(p)·α + ((p-1)/p)·nβ + ((p-1)/p)·nγ (+ α + nβ + nγ when p is not a power of two).
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {

HalvingGroup::HalvingGroup(int n) : size(n), pof2(pow2_floor(n)), rem(n - pow2_floor(n)) {}

int HalvingGroup::new_rank(int rank) const {
  if (rank < 2 * rem) return rank % 2 == 1 ? rank / 2 : -1;
  return rank - rem;
}

int HalvingGroup::old_rank(int n) const { return n < rem ? 2 * n + 1 : n + rem; }

Block halving_span(const HalvingGroup& g, std::span<const Block> blocks, int lo, int hi) {
  const Block& first = blocks[size_t(g.first_block(lo))];
  const Block& last = blocks[size_t(g.first_block(hi - 1) + g.block_count(hi - 1) - 1)];
  return {first.offset, last.offset + last.bytes - first.offset};
}

StepId append_halving_reduce_scatter(Schedule& s, const CollArgs& a,
                                     std::span<const Block> blocks, std::optional<BufRef> input,
                                     BufRef acc, StepId after) {
  const HalvingGroup g(a.size);
  const Block all = halving_span(g, blocks, 0, g.pof2);
  if (a.size == 1) {
    return input ? s.copy(input->at(all.offset), acc.at(all.offset), all.bytes, {after}) : after;
  }
  if (a.rank < 2 * g.rem && a.rank % 2 == 0) {
    return s.send(a.rank + 1, input.value_or(acc).at(all.offset), all.bytes, {after});
  }
  // Where the partner's data lands before it is folded into `acc`: received straight into acc
  // while acc holds nothing of this rank yet (the input is then folded in from where it is),
  // else into scratch made on first use.
  std::optional<BufRef> tmp;
  auto landing = [&](const Block& b) {
    if (input) return acc.at(b.offset);
    if (!tmp) tmp = s.scratch(all.offset + all.bytes);
    return tmp->at(b.offset);
  };
  // Folds what `got` brought for block `b` into acc; acc holds the input from then on.
  auto fold = [&](const Block& b, StepId got) {
    const BufRef arrived = input ? input->at(b.offset) : tmp->at(b.offset);
    input.reset();
    return s.reduce(arrived, acc.at(b.offset), b.bytes, {got});
  };
  StepId last = after;
  if (a.rank < 2 * g.rem) {
    last = fold(all, s.recv(a.rank - 1, landing(all), all.bytes, {after}));
  }
  const int n = g.new_rank(a.rank);
  std::vector<StepId> sends;
  int lo = 0, hi = g.pof2;
  for (int d = g.pof2 / 2; d >= 1; d /= 2) {
    const int partner = g.old_rank(n ^ d), mid = lo + (hi - lo) / 2;
    const bool upper = (n & d) != 0;
    const Block keep = halving_span(g, blocks, upper ? mid : lo, upper ? hi : mid);
    const Block give = halving_span(g, blocks, upper ? lo : mid, upper ? mid : hi);
    const StepId got = s.recv(partner, landing(keep), keep.bytes, {last});
    sends.push_back(s.send(partner, input.value_or(acc).at(give.offset), give.bytes, {last}));
    last = fold(keep, got);
    (upper ? lo : hi) = mid;
  }
  sends.push_back(last);
  return s.join(sends);
}

namespace {

bool accepts(const CollArgs& a) { return a.commutative; }

void build(const CollArgs& a, Schedule& s) {
  const HalvingGroup g(a.size);
  const Block all = halving_span(g, a.blocks, 0, g.pof2);
  const BufRef acc = s.scratch(all.offset + all.bytes);
  const StepId reduced = append_halving_reduce_scatter(s, a, a.blocks, send_buf(), acc, kNoStep);
  const Block mine = a.blocks[size_t(a.rank)];
  const int n = g.new_rank(a.rank);
  if (n < 0) {
    s.recv(a.rank + 1, recv_buf(), mine.bytes, {reduced});
    return;
  }
  if (g.block_count(n) == 2) {  // this rank also holds the block of its folded partner
    const Block theirs = a.blocks[size_t(a.rank - 1)];
    s.send(a.rank - 1, acc.at(theirs.offset), theirs.bytes, {reduced});
  }
  s.copy(acc.at(mine.offset), recv_buf(), mine.bytes, {reduced});
}

Cost cost(const CollArgs& a) {
  const HalvingGroup g(a.size);
  const double n = double(a.total_block_bytes()), q = g.pof2;
  const double fold = g.rem > 0 ? 1 : 0;
  return {double(ceil_log2(g.pof2)) + 2 * fold, n * (q - 1) / q + fold * (n + n / a.size),
          n * (q - 1) / q + fold * n};
}

}  // namespace

extern const Algorithm kReduceScatterHalving{"recursive_halving", CollKind::kReduceScatter,
                                             accepts, cost, build};

}  // namespace weft::coll
