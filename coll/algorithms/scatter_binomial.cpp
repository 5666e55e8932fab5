// Binomial-tree scatter: relative rank r receives the blocks of its whole subtree from its parent
// and hands each child the part for the child's subtree; the root's blocks are first copied
// into relative order when the root is not rank 0 or they have gaps. Needs every rank to know
// every block (not scatterv). Cost: ceil(log2 p)·α + ((p-1)/p)·nβ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {

namespace {
// Bytes of the relative-rank blocks [first, first + count), packed back to back.
size_t span_bytes(std::span<const Block> blocks, int first, int count) {
  const Block& last = blocks[size_t(first + count - 1)];
  return last.offset + last.bytes - blocks[size_t(first)].offset;
}
}  // namespace

StepId append_binomial_scatter(Schedule& s, const Ring& ring, std::span<const Block> blocks,
                               BufRef root_buf, BufRef subtree_buf, StepId after) {
  const int r = ring.self;
  const size_t base = blocks[size_t(r)].offset;
  BufRef here = subtree_buf;
  std::vector<StepId> steps;
  StepId have = after;
  if (r == 0) {
    here = root_buf.at(base);
  } else {
    const int sub = binomial_subtree(r, ring.size);
    have = s.recv(ring.rank_of(binomial_parent(r)), subtree_buf, span_bytes(blocks, r, sub),
                  {after});
    steps.push_back(have);
  }
  for (int m = binomial_child_top(r, ring.size); m >= 1; m /= 2) {
    const int c = r + m;
    if (c >= ring.size) continue;
    const size_t at = blocks[size_t(c)].offset - base;
    steps.push_back(s.send(ring.rank_of(c), here.at(at),
                           span_bytes(blocks, c, binomial_subtree(c, ring.size)), {have}));
  }
  return steps.empty() ? after : s.join(steps);
}

namespace {

bool accepts(const CollArgs& a) { return a.uniform; }

void build(const CollArgs& a, Schedule& s) {
  const size_t b = a.blocks[0].bytes;
  const int r = to_relative(a.rank, a.root, a.size);
  std::vector<Block> relative(size_t(a.size));
  for (int k = 0; k < a.size; ++k) relative[size_t(k)] = {size_t(k) * b, b};
  BufRef root_buf = send_buf(a.blocks[0].offset);
  StepId ready = kNoStep;
  if (r == 0 && (a.root != 0 || !back_to_back(a.blocks))) {
    // Relative block k is absolute block (k + root) % p: copied into scratch in that order.
    root_buf = s.scratch(size_t(a.size) * b);
    std::vector<StepId> placed;
    for (int k = 0; k < a.size; ++k) {
      const Block& in = a.blocks[size_t(to_absolute(k, a.root, a.size))];
      placed.push_back(s.copy(send_buf(in.offset), root_buf.at(size_t(k) * b), b));
    }
    ready = s.join(placed);
  }
  const bool leaf = binomial_subtree(r, a.size) == 1;
  const BufRef subtree = (r == 0 || leaf) ? recv_buf() : s.scratch(size_t(binomial_subtree(r, a.size)) * b);
  const StepId done = append_binomial_scatter(s, Ring{r, a.size, a.root}, relative, root_buf, subtree, ready);
  if (r == 0) {
    s.copy(root_buf, recv_buf(), b, {done});
  } else if (!leaf) {
    s.copy(subtree, recv_buf(), b, {done});
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size;
  return {double(ceil_log2(a.size)), double(a.total_block_bytes()) * (p - 1) / p, 0};
}

}  // namespace

extern const Algorithm kScatterBinomial{"binomial", CollKind::kScatter, accepts, cost, build};

}  // namespace weft::coll
