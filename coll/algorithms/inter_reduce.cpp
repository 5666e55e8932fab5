// Intercommunicator reduce: the group without the root reduces to its rank 0 along a binomial
// tree (rank order kept, so any op), which sends the result to the root in the other group
// (MPI 4.1 §6.9.1; the method of MPICH's intercomm reduce). Cost: ceil(log2 p)·(α + nβ + nγ)
// + α + nβ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/inter_parts.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.root == CollArgs::kRootHere) {
    s.recv(inter_peer(a, 0), recv_buf(), a.bytes);
    return;
  }
  if (a.root == CollArgs::kRootNone) return;
  const BufRef partial = s.scratch(a.bytes);  // this group's recvbuf is not significant
  const StepId done = append_local_reduce(s, a, send_buf(), partial, a.bytes, kNoStep);
  if (a.rank == 0) s.send(inter_peer(a, a.root), partial, a.bytes, {done});
}

Cost cost(const CollArgs& a) {
  const double rounds = ceil_log2(a.size);
  return {rounds + 1, (rounds + 1) * double(a.bytes), rounds * double(a.bytes)};
}

}  // namespace

extern const Algorithm kInterReduce{"inter", CollKind::kReduce, nullptr, cost, build};

}  // namespace weft::coll
