// Intercommunicator broadcast: the root sends the message to rank 0 of the other group, which
// broadcasts it there along a binomial tree; the rest of the root's group does nothing (MPI 4.1
// §6.2.2; the method of MPICH's intercomm bcast). Cost: α + nβ + ceil(log2 p)·(α + nβ).
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/inter_parts.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.root == CollArgs::kRootHere) {
    s.send(inter_peer(a, 0), recv_buf(), a.bytes);
    return;
  }
  if (a.root == CollArgs::kRootNone) return;
  StepId have = kNoStep;
  if (a.rank == 0) have = s.recv(inter_peer(a, a.root), recv_buf(), a.bytes);
  append_local_bcast(s, a, recv_buf(), a.bytes, have);
}

Cost cost(const CollArgs& a) {
  const double rounds = 1 + ceil_log2(a.size);
  return {rounds, rounds * double(a.bytes), 0};
}

}  // namespace

extern const Algorithm kInterBcast{"inter", CollKind::kBcast, nullptr, cost, build};

}  // namespace weft::coll
