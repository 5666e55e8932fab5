// Pairwise-exchange all-to-all (as in MPICH for long messages): in step k each rank sends its
// block for rank + k and receives the block from rank - k, one exchange at a time, so each link
// carries one message at a time. Works for alltoallv/w. Cost: (p-1)·α + ((p-1)/p)·nβ.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const Block& own_out = a.send_blocks[size_t(a.rank)];
  const Block& own_in = a.recv_blocks[size_t(a.rank)];
  StepId previous = s.copy(send_buf(own_out.offset), recv_buf(own_in.offset), own_in.bytes);
  for (int k = 1; k < a.size; ++k) {
    const int to = (a.rank + k) % a.size, from = (a.rank - k + a.size) % a.size;
    const Block& in = a.recv_blocks[size_t(from)];
    const Block& out = a.send_blocks[size_t(to)];
    const StepId got = s.recv(from, recv_buf(in.offset), in.bytes, {previous});
    const StepId sent = s.send(to, send_buf(out.offset), out.bytes, {previous});
    previous = s.join({got, sent});
  }
}

Cost cost(const CollArgs& a) {
  double bytes = 0;
  for (const Block& b : a.recv_blocks) bytes += double(b.bytes);
  return {double(a.size - 1), bytes, 0};
}

}  // namespace

extern const Algorithm kAlltoallPairwise{"pairwise", CollKind::kAlltoall, nullptr, cost, build};

}  // namespace weft::coll
