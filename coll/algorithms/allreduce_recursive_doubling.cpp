// Recursive-doubling allreduce (Thakur, Rabenseifner & Gropp 2005): for distance 1, 2, 4, ...
// each rank swaps its whole partial result with the partner at that distance and folds it in,
// the lower rank's part on the left, so the order of ranks is kept and non-commutative ops work.
// Non-power-of-two sizes: the even rank of each of the first 2·(p - 2^k) pairs folds into the
// odd one first and gets the result at the end. Best for short vectors.
// Cost: log2(p)·(α + nβ + nγ) (+ 2α + 2nβ + nγ when p is not a power of two).
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const HalvingGroup g(a.size);
  const size_t n = a.bytes;
  if (a.rank < 2 * g.rem && a.rank % 2 == 0) {  // folded: give the input, get the result
    const StepId sent = s.send(a.rank + 1, send_buf(), n);
    s.recv(a.rank + 1, recv_buf(), n, {sent});
    return;
  }
  // The partial result moves between kRecv and one scratch buffer: folding a higher rank's
  // part in on the right (acc op theirs) leaves the result in the buffer theirs came in.
  BufRef acc = recv_buf(), other = s.scratch(n);
  StepId last = s.copy(send_buf(), acc, n);
  StepId sent = kNoStep;
  if (a.rank < 2 * g.rem) {
    const StepId got = s.recv(a.rank - 1, other, n);
    last = s.reduce(other, acc, n, {got, last});
  }
  const int me = g.new_rank(a.rank);
  for (int d = 1; d < g.pof2; d *= 2) {
    const int partner = me ^ d;
    const StepId got = s.recv(g.old_rank(partner), other, n, {last, sent});
    sent = s.send(g.old_rank(partner), acc, n, {last});
    if (partner < me) {
      last = s.reduce(other, acc, n, {got, sent});  // acc = theirs op acc
    } else {
      last = s.reduce(acc, other, n, {got, sent});  // other = acc op theirs
      std::swap(acc, other);
    }
  }
  if (a.rank < 2 * g.rem) s.send(a.rank - 1, acc, n, {last});
  if (acc.buf != Buf::kRecv) s.copy(acc, recv_buf(), n, {last});
}

Cost cost(const CollArgs& a) {
  const HalvingGroup g(a.size);
  const double n = double(a.bytes), rounds = ceil_log2(g.pof2), fold = g.rem > 0 ? 1 : 0;
  return {rounds + 2 * fold, (rounds + 2 * fold) * n, (rounds + fold) * n};
}

}  // namespace

extern const Algorithm kAllreduceRecursiveDoubling{"recursive_doubling", CollKind::kAllreduce,
                                                   nullptr, cost, build};

}  // namespace weft::coll
