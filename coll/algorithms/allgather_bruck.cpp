// Bruck allgather (Bruck, Ho, Kipnis, Upfal & Weathersby, "Efficient algorithms for all-to-all
// communications in multiport message-passing systems", 1997): position j of a scratch area holds
// the block of rank (rank + j) mod p; in round k each rank sends its first min(2^k, p - 2^k)
// positions to rank - 2^k and receives as many into positions 2^k.. from rank + 2^k. After
// ceil(log2 p) rounds the positions are copied out to their ranks' places. Any p, blocks of any
// size (allgatherv). Cost: ceil(log2 p)·α + ((p-1)/p)·nβ.
#include <algorithm>

#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const int p = a.size;
  std::vector<size_t> at(size_t(p) + 1, 0);  // position j starts at at[j]
  for (int j = 0; j < p; ++j) at[size_t(j) + 1] = at[size_t(j)] + a.blocks[size_t((a.rank + j) % p)].bytes;
  const BufRef work = s.scratch(at[size_t(p)]);
  std::vector<StepId> received{s.copy(send_buf(), work, at[1])};
  std::vector<StepId> sends;
  for (int d = 1; d < p; d *= 2) {
    const size_t count = size_t(std::min(d, p - d));
    const StepId got = s.recv((a.rank + d) % p, work.at(at[size_t(d)]),
                              at[size_t(d) + count] - at[size_t(d)]);
    sends.push_back(s.send((a.rank - d + p) % p, work, at[count], {}));
    for (StepId r : received) s.also_after(r);
    received.push_back(got);
  }
  received.insert(received.end(), sends.begin(), sends.end());
  const StepId all = s.join(received);
  for (int j = 0; j < p; ++j) {
    const Block& b = a.blocks[size_t((a.rank + j) % p)];
    s.copy(work.at(at[size_t(j)]), recv_buf(b.offset), b.bytes, {all});
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.total_block_bytes());
  return {double(ceil_log2(a.size)), n * (p - 1) / p + n, 0};  // + n: the copies in and out
}

}  // namespace

extern const Algorithm kAllgatherBruck{"bruck", CollKind::kAllgather, nullptr, cost, build};

}  // namespace weft::coll
