// Binomial-tree reduce: rank r receives the partial results of its children r + 1, r + 2, r + 4,
// ... (in that order), folds each into its own, and sends the result to its parent. The tree is
// over ranks relative to the root for commutative ops; for the others it is over the ranks
// themselves rooted at rank 0, which keeps every fold in rank order (a child's subtree holds
// the next higher ranks), and rank 0 forwards the result to the root.
// Cost: ceil(log2 p)·(α + nβ + nγ) (+ α + nβ for a non-commutative op with root != 0).
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const int tree_root = a.commutative ? a.root : 0;
  const int v = to_relative(a.rank, tree_root, a.size);
  auto rank_of = [&](int relative) { return to_absolute(relative, tree_root, a.size); };
  BufRef acc = send_buf();  // where this rank's partial result is; kSend until the first fold
  StepId folded = kNoStep;
  for (int m = 1; m < binomial_child_top(v, a.size) * 2 && v + m < a.size; m *= 2) {
    const BufRef child = s.scratch(a.bytes);
    const StepId got = s.recv(rank_of(v + m), child, a.bytes);
    folded = s.reduce(acc, child, a.bytes, {got, folded});  // child = acc op child
    acc = child;
  }
  if (v != 0) {
    const StepId sent = s.send(rank_of(binomial_parent(v)), acc, a.bytes, {folded});
    // A non-commutative result reaches a root other than 0 from rank 0, after the root's own
    // part has left its (possibly in-place) buffer.
    if (a.rank == a.root) s.recv(tree_root, recv_buf(), a.bytes, {sent});
  } else if (a.rank == a.root) {
    s.copy(acc, recv_buf(), a.bytes, {folded});
  } else {
    s.send(a.root, acc, a.bytes, {folded});
  }
}

Cost cost(const CollArgs& a) {
  const double rounds = ceil_log2(a.size) + (!a.commutative && a.root != 0 ? 1 : 0);
  const double n = double(a.bytes);
  return {rounds, rounds * n, ceil_log2(a.size) * n};
}

}  // namespace

extern const Algorithm kReduceBinomial{"binomial", CollKind::kReduce, nullptr, cost, build};

}  // namespace weft::coll
