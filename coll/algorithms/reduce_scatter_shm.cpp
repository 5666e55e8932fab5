// Node-region reduce-scatter for small vectors on one node: every rank posts its whole input
// once in the communicator's shared region (coll/node_region.hpp), then fetches its own block
// from every other rank's post and folds the blocks in rank order, so any op is right.
// Cost: α_region + (p+1)·bβ_region + (p-1)·bγ for b the bytes of the largest block.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) {
  return !a.blocks.empty() && region_takes(a, blocks_end(a.blocks));
}

void build(const CollArgs& a, Schedule& s) {
  const Block mine = a.blocks[size_t(a.rank)];
  fold_posts(a, s, s.post(send_buf(), blocks_end(a.blocks), a.size - 1), &mine);
}

// Every rank must predict the same, so the largest block's rank is the one costed.
Cost cost(const CollArgs& a) {
  size_t largest = 0;
  for (const Block& block : a.blocks) largest = std::max(largest, block.bytes);
  const double p = a.size, b = double(largest);
  Cost c;
  c.syncs = 1;
  c.region_bytes = (p + 1) * b;
  c.reduced = (p - 1) * b;
  return c;
}

}  // namespace

extern const Algorithm kReduceScatterShm{
    "shm", CollKind::kReduceScatter, accepts, cost, build, false, true};

}  // namespace weft::coll
