// Single-copy allreduce on one node: the single-copy reduce-scatter (reduce_scatter_single_copy.cpp)
// leaves block i of the result in rank i's output, which each rank then posts by reference as its
// second post of the call, and every rank reads every other block straight into its own output
// (process_vm_readv). Two hand-overs through the node region instead of 2(p-1) message rounds,
// and each byte crosses between processes once per direction. Commutative ops only.
// Cost: 3α_region + (reads + p - 1)·α + 2((p-1)/p)·nβ + ((p-1)/p)·nγ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return a.commutative && region_takes(a, 0); }

void build(const CollArgs& a, Schedule& s) {
  const std::vector<Block> blocks = even_blocks(a.bytes, a.elem_size, a.size);
  const Block mine = blocks[size_t(a.rank)];
  StepId posted = kNoStep;
  const StepId folded = append_single_copy_reduce_scatter(s, a, send_buf(), blocks,
                                                          recv_buf(mine.offset), &posted);
  // The second post waits in the region until the first is read by all (and so does the
  // schedule, which asks about the first post until then).
  s.set_region_post(1);
  s.post_reference(recv_buf(mine.offset), mine.bytes, a.size - 1, {folded, posted});
  // In place the others read their blocks of this rank's input from the output; overwrite
  // them only once all have.
  const StepId free_to_write = a.in_place ? posted : kNoStep;
  for (int r = 0; r < a.size; ++r) {
    const Block& b = blocks[size_t(r)];
    if (r != a.rank) s.fetch_reference(r, recv_buf(b.offset), b.bytes, {free_to_write});
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.bytes);
  Cost c = single_copy_reduce_scatter_cost(a, size_t(n / p));
  c.syncs += 1;  // the second post seen
  c.rounds += p - 1;  // one read of each other block
  c.node_rounds = c.rounds;
  c.bytes += (p - 1) / p * n;
  c.node_bytes = c.bytes;
  return c;
}

}  // namespace

extern const Algorithm kAllreduceSingleCopy{"single_copy", CollKind::kAllreduce, accepts, cost,
                                            build, false, true, true};

}  // namespace weft::coll
