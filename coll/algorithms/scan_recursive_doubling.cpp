// Recursive-doubling inclusive scan (as in MPICH): each rank keeps its running result and a
// partial sum of a window of ranks; for distance 1, 2, 4, ... it swaps the partial sum with
// rank XOR distance, folds a lower partner's into both, and a higher partner's into the partial
// sum only, keeping rank order on both sides. Cost: ceil(log2 p)·(α + nβ + 2nγ).
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const size_t n = a.bytes;
  // `partial` moves between two scratch buffers (see allreduce_recursive_doubling.cpp).
  BufRef partial = s.scratch(n), other = s.scratch(n);
  const StepId copied = s.copy(send_buf(), partial, n);
  StepId result = s.copy(send_buf(), recv_buf(), n);
  StepId last = copied, sent = kNoStep;
  for (int d = 1; d < a.size; d *= 2) {
    const int partner = a.rank ^ d;
    if (partner >= a.size) continue;
    const StepId got = s.recv(partner, other, n, {last, sent, result});
    sent = s.send(partner, partial, n, {last});
    if (partner < a.rank) {
      result = s.reduce(other, recv_buf(), n, {got, result});  // result = theirs op result
      last = s.reduce(other, partial, n, {got, sent});         // partial = theirs op partial
    } else {
      last = s.reduce(partial, other, n, {got, sent});  // other = partial op theirs
      std::swap(partial, other);
    }
  }
}

Cost cost(const CollArgs& a) {
  const double rounds = ceil_log2(a.size), n = double(a.bytes);
  return {rounds, rounds * n, 2 * rounds * n};
}

}  // namespace

extern const Algorithm kScanRecursiveDoubling{"recursive_doubling", CollKind::kScan, nullptr,
                                              cost, build};

}  // namespace weft::coll
