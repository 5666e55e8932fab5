// Node-region all-to-all for small blocks on one node: every rank posts all its blocks once, in
// rank order, in the communicator's shared region (coll/node_region.hpp), and copies from every
// other rank's post the block meant for it. Regular all-to-all only (equal blocks, so a rank
// knows where its block lies in another's post). Cost: α_region + 3nβ_region for n the bytes sent.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

size_t block_bytes(const CollArgs& a) { return a.send_blocks.front().bytes; }

// Whether the send blocks lie back to back in rank order, so the post can be the buffer itself.
bool in_order(const CollArgs& a) {
  for (size_t i = 0; i < a.send_blocks.size(); ++i)
    if (a.send_blocks[i].offset != a.send_blocks[0].offset + i * block_bytes(a)) return false;
  return true;
}

bool accepts(const CollArgs& a) {
  return a.uniform && !a.send_blocks.empty() && region_takes(a, size_t(a.size) * block_bytes(a));
}

void build(const CollArgs& a, Schedule& s) {
  const size_t b = block_bytes(a), all = size_t(a.size) * b;
  BufRef post = send_buf(a.send_blocks[0].offset);
  StepId packed = kNoStep;
  if (!in_order(a)) {  // gather the blocks in rank order first
    post = s.scratch(all);
    std::vector<StepId> copies;
    for (int r = 0; r < a.size; ++r)
      copies.push_back(
          s.copy(send_buf(a.send_blocks[size_t(r)].offset), post.at(size_t(r) * b), b));
    packed = s.join(copies);
  }
  s.post(post, all, a.size - 1, {packed});
  // The receive blocks are written after the packing, which may read the same memory.
  const size_t mine = size_t(a.rank) * b;
  for (int r = 0; r < a.size; ++r) {
    const BufRef into = recv_buf(a.recv_blocks[size_t(r)].offset);
    if (r == a.rank) {
      s.copy(post.at(mine), into, b, {packed});
    } else {
      s.fetch_part(r, mine, into, b, {packed});
    }
  }
}

Cost cost(const CollArgs& a) {
  Cost c;
  c.syncs = 1;
  c.region_bytes = 3 * double(size_t(a.size) * block_bytes(a));
  return c;
}

}  // namespace

extern const Algorithm kAlltoallShm{"shm", CollKind::kAlltoall, accepts, cost, build, false, true};

}  // namespace weft::coll
