// Recursive-doubling exclusive scan (as in MPICH): like the inclusive scan, but the result only
// ever takes in lower partners' partial sums, so rank r ends with x0 op ... op x(r-1); rank 0's
// output is left alone. Cost: ceil(log2 p)·(α + nβ + 2nγ).
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const size_t n = a.bytes;
  BufRef partial = s.scratch(n), other = s.scratch(n);
  StepId last = s.copy(send_buf(), partial, n);
  // The output overlaps the input in place: it is first written once the input is copied.
  StepId result = kNoStep, sent = kNoStep;
  bool have_result = false;
  for (int d = 1; d < a.size; d *= 2) {
    const int partner = a.rank ^ d;
    if (partner >= a.size) continue;
    const StepId got = s.recv(partner, other, n, {last, sent, result});
    sent = s.send(partner, partial, n, {last});
    if (partner < a.rank) {
      result = have_result ? s.reduce(other, recv_buf(), n, {got, result})
                           : s.copy(other, recv_buf(), n, {got, last});
      have_result = true;
      last = s.reduce(other, partial, n, {got, sent});
    } else {
      last = s.reduce(partial, other, n, {got, sent});
      std::swap(partial, other);
    }
  }
}

Cost cost(const CollArgs& a) {
  const double rounds = ceil_log2(a.size), n = double(a.bytes);
  return {rounds, rounds * n, 2 * rounds * n};
}

}  // namespace

extern const Algorithm kExscanRecursiveDoubling{"recursive_doubling", CollKind::kExscan, nullptr,
                                                cost, build};

}  // namespace weft::coll
