// Node-region allgather for small blocks on one node: every rank posts its block once in the
// communicator's shared region (coll/node_region.hpp) and copies every other rank's block from
// there into its place; regular blocks of up to kArrivalBytes on 3 ranks or more go through
// the ranks' arrival lines instead (gathers_arrivals). Cost: α_region + (n/p + n)β_region for
// n the bytes of all blocks.
#include <algorithm>

#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) {
  size_t largest = 0;
  for (const Block& b : a.blocks) largest = std::max(largest, b.bytes);
  return region_takes(a, largest);
}

void build(const CollArgs& a, Schedule& s) {
  const Block own = a.blocks[size_t(a.rank)];
  if (gathers_arrivals(a.blocks)) {  // in place, the own block is brought and copied back
    s.arrive(a.size, send_buf(), own.bytes, recv_buf());
    return;
  }
  const StepId posted = s.post(send_buf(), own.bytes, a.size - 1);
  // In place, the own block is the send buffer: it stays until the post has copied it.
  s.copy(send_buf(), recv_buf(own.offset), own.bytes, {posted});
  for (int r = 0; r < a.size; ++r) {
    const Block& b = a.blocks[size_t(r)];
    if (r != a.rank) s.fetch(r, recv_buf(b.offset), b.bytes);
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.total_block_bytes());
  Cost c;
  c.syncs = 1;
  c.region_bytes = n / p + n;
  return c;
}

}  // namespace

extern const Algorithm kAllgatherShm{"shm", CollKind::kAllgather, accepts, cost, build, false,
                                     true};

}  // namespace weft::coll
