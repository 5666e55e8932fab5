// Intercommunicator barrier: a local barrier, then the two leaders (local rank 0 of each group)
// exchange an empty message, then each leader releases its group with an empty broadcast; no
// rank leaves before every rank of both groups has entered (the method of MPICH's intercomm
// barrier, Thakur et al. 2005). Cost: 2·ceil(log2 p)·α + α.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/inter_parts.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  StepId ready = append_local_barrier(s, a, kNoStep);
  if (a.rank == 0) {
    s.send(inter_peer(a, 0), recv_buf(), 0, {ready});
    ready = s.recv(inter_peer(a, 0), recv_buf(), 0, {ready});
  }
  append_local_bcast(s, a, recv_buf(), 0, ready);
}

Cost cost(const CollArgs& a) { return {2 * double(ceil_log2(a.size)) + 1, 0, 0}; }

}  // namespace

extern const Algorithm kInterBarrier{"inter", CollKind::kBarrier, nullptr, cost, build};

}  // namespace weft::coll
