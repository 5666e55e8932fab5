// Binomial-tree gather: relative rank r collects the blocks of its subtree from its children
// (into scratch, in relative order) and sends them to its parent in one message; a root other
// than rank 0, or whose blocks have gaps, copies them to their places at the end. Needs every
// rank to know every block (not gatherv). Cost: ceil(log2 p)·α + ((p-1)/p)·nβ.
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return a.uniform; }

void build(const CollArgs& a, Schedule& s) {
  const size_t b = a.blocks[0].bytes;
  const int r = to_relative(a.rank, a.root, a.size);
  const int sub = binomial_subtree(r, a.size);
  if (sub == 1 && r != 0) {  // a leaf sends its own block straight from the input
    s.send(to_absolute(binomial_parent(r), a.root, a.size), send_buf(), b);
    return;
  }
  // Where the subtree's blocks gather, in relative order: the output itself at a root 0 whose
  // blocks lie back to back.
  const bool direct = r == 0 && a.root == 0 && back_to_back(a.blocks);
  const BufRef area = direct ? recv_buf(a.blocks[0].offset) : s.scratch(size_t(sub) * b);
  std::vector<StepId> parts{s.copy(send_buf(), area, b)};
  for (int m = 1; m < binomial_child_top(r, a.size) * 2; m *= 2) {
    const int c = r + m;
    if (c >= a.size) break;
    parts.push_back(s.recv(to_absolute(c, a.root, a.size), area.at(size_t(m) * b),
                           size_t(binomial_subtree(c, a.size)) * b));
  }
  const StepId all = s.join(parts);
  if (r != 0) {
    s.send(to_absolute(binomial_parent(r), a.root, a.size), area, size_t(sub) * b, {all});
  } else if (!direct) {
    for (int k = 0; k < a.size; ++k) {  // relative block k is absolute block (k + root) % p
      const Block& out = a.blocks[size_t(to_absolute(k, a.root, a.size))];
      s.copy(area.at(size_t(k) * b), recv_buf(out.offset), b, {all});
    }
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size;
  return {double(ceil_log2(a.size)), double(a.total_block_bytes()) * (p - 1) / p, 0};
}

}  // namespace

extern const Algorithm kGatherBinomial{"binomial", CollKind::kGather, accepts, cost, build};

}  // namespace weft::coll
