// Intercommunicator all-to-all(v/w): every rank sends send block i to remote rank i and receives
// recv block i from it (MPI 4.1 §6.8, the linear form of the definition), starting at a
// different remote rank on each rank. Cost: q·α + (bytes sent + received)·β.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  for (int i = 0; i < a.remote_size; ++i) {
    const int r = (a.rank + i) % a.remote_size;
    const Block& in = a.recv_blocks[size_t(r)];
    const Block& out = a.send_blocks[size_t(r)];
    s.recv(inter_peer(a, r), recv_buf(in.offset), in.bytes);
    s.send(inter_peer(a, r), send_buf(out.offset), out.bytes);
  }
}

Cost cost(const CollArgs& a) {
  double bytes = 0;
  for (const Block& b : a.send_blocks) bytes += double(b.bytes);
  for (const Block& b : a.recv_blocks) bytes += double(b.bytes);
  return {double(a.remote_size), bytes, 0};
}

}  // namespace

extern const Algorithm kInterAlltoall{"inter", CollKind::kAlltoall, nullptr, cost, build};

}  // namespace weft::coll
