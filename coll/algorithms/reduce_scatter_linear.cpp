// Linear reduce-scatter, the reference form: the linear reduce of the whole vector to rank 0
// (a fold in rank order), then rank 0 sends every rank its block.
// Cost: (p-1)·(α + nβ + nγ) + (p-1)·α + ((p-1)/p)·nβ.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const size_t total = blocks_end(a.blocks);
  const Block mine = a.blocks[size_t(a.rank)];
  if (a.rank != 0) {
    const StepId sent = s.send(0, send_buf(), total);
    s.recv(0, recv_buf(), mine.bytes, {sent});
    return;
  }
  const BufRef slots = s.scratch(size_t(a.size) * total);  // slot r ends holding x0 op ... op xr
  auto slot = [&](int r) { return slots.at(size_t(r) * total); };
  StepId folded = s.copy(send_buf(), slot(0), total);
  for (int r = 1; r < a.size; ++r) {
    const StepId got = s.recv(r, slot(r), total);
    folded = s.reduce(slot(r - 1), slot(r), total, {folded, got});
  }
  const BufRef sum = slot(a.size - 1);
  for (int r = 1; r < a.size; ++r) {
    const Block& b = a.blocks[size_t(r)];
    s.send(r, sum.at(b.offset), b.bytes, {folded});
  }
  s.copy(sum.at(mine.offset), recv_buf(), mine.bytes, {folded});
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.total_block_bytes());
  return {2 * (p - 1), (p - 1) * n + n * (p - 1) / p, (p - 1) * n};
}

}  // namespace

extern const Algorithm kReduceScatterLinear{"linear", CollKind::kReduceScatter, nullptr, cost,
                                            build};

}  // namespace weft::coll
