// Linear allgather, the reference form: every rank sends its block to every other rank and
// receives each block straight into its place. Cost: (p-1)·α + ((p-1)/p)·nβ, all at once.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const Block own = a.blocks[size_t(a.rank)];
  s.copy(send_buf(), recv_buf(own.offset), own.bytes);
  for (int k = 1; k < a.size; ++k) {
    const int from = (a.rank - k + a.size) % a.size, to = (a.rank + k) % a.size;
    const Block& in = a.blocks[size_t(from)];
    s.recv(from, recv_buf(in.offset), in.bytes);
    s.send(to, send_buf(), own.bytes);
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size;
  return {p - 1, double(a.total_block_bytes()) * (p - 1) / p, 0};
}

}  // namespace

extern const Algorithm kAllgatherLinear{"linear", CollKind::kAllgather, nullptr, cost, build};

}  // namespace weft::coll
