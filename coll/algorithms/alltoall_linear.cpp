// Linear all-to-all, also the reference form: every receive and send is posted at once, but at
// most kWindow of each stay in flight (a new exchange starts when the one kWindow before it has
// finished), which bounds the load on the network and on unexpected-message buffers.
// Works for alltoallv/w. Cost: (p-1)·α/kWindow·... modelled as ceil((p-1)/kWindow)·α + nβ.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

constexpr int kWindow = 32;

void build(const CollArgs& a, Schedule& s) {
  const Block& own_out = a.send_blocks[size_t(a.rank)];
  const Block& own_in = a.recv_blocks[size_t(a.rank)];
  s.copy(send_buf(own_out.offset), recv_buf(own_in.offset), own_in.bytes);
  std::vector<StepId> exchanged;
  for (int k = 1; k < a.size; ++k) {
    const int to = (a.rank + k) % a.size, from = (a.rank - k + a.size) % a.size;
    const StepId window = k > kWindow ? exchanged[size_t(k - 1 - kWindow)] : kNoStep;
    const Block& in = a.recv_blocks[size_t(from)];
    const Block& out = a.send_blocks[size_t(to)];
    const StepId got = s.recv(from, recv_buf(in.offset), in.bytes, {window});
    const StepId sent = s.send(to, send_buf(out.offset), out.bytes, {window});
    exchanged.push_back(s.join({got, sent}));
  }
}

Cost cost(const CollArgs& a) {
  double bytes = 0;
  for (const Block& b : a.recv_blocks) bytes += double(b.bytes);
  return {double((a.size - 1 + kWindow - 1) / kWindow) + 1, bytes, 0};
}

}  // namespace

extern const Algorithm kAlltoallLinear{"linear", CollKind::kAlltoall, nullptr, cost, build};

}  // namespace weft::coll
