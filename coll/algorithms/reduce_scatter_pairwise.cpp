// Pairwise-exchange reduce-scatter (as in MPICH for long messages): in step k each rank sends
// rank + k the part of its input that rank needs and receives from rank - k the part it needs
// itself, one exchange at a time; the parts are then folded in rank order, so non-commutative
// ops work. Cost: (p-1)·α + ((p-1)/p)·nβ + ((p-1)/p)·nγ.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const Block mine = a.blocks[size_t(a.rank)];
  const BufRef parts = s.scratch(size_t(a.size) * mine.bytes);  // part r comes from rank r
  auto part = [&](int r) { return parts.at(size_t(r) * mine.bytes); };
  std::vector<StepId> arrived(size_t(a.size)), reads;
  arrived[size_t(a.rank)] = s.copy(send_buf(mine.offset), part(a.rank), mine.bytes);
  StepId previous = kNoStep;
  for (int k = 1; k < a.size; ++k) {
    const int to = (a.rank + k) % a.size, from = (a.rank - k + a.size) % a.size;
    const Block& out = a.blocks[size_t(to)];
    const StepId got = s.recv(from, part(from), mine.bytes, {previous});
    const StepId sent = s.send(to, send_buf(out.offset), out.bytes, {previous});
    arrived[size_t(from)] = got;
    reads.push_back(sent);
    previous = s.join({got, sent});
  }
  StepId folded = arrived[0];
  for (int r = 1; r < a.size; ++r)  // part r = part r-1 op part r
    folded = s.reduce(part(r - 1), part(r), mine.bytes, {folded, arrived[size_t(r)]});
  reads.push_back(folded);
  reads.push_back(arrived[size_t(a.rank)]);
  s.copy(part(a.size - 1), recv_buf(), mine.bytes, {s.join(reads)});
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.total_block_bytes());
  return {p - 1, n * (p - 1) / p, n * (p - 1) / p};
}

}  // namespace

extern const Algorithm kReduceScatterPairwise{"pairwise", CollKind::kReduceScatter, nullptr, cost,
                                              build};

}  // namespace weft::coll
