// Intercommunicator allreduce: each group reduces to its rank 0, the two leaders swap their
// groups' results, and each leader broadcasts the other group's result in its own group
// (MPI 4.1 §6.9.6; the method of MPICH's intercomm allreduce). Cost: 2·ceil(log2 p)·(α + nβ)
// + ceil(log2 p)·nγ + α + nβ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/inter_parts.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const BufRef partial = s.scratch(a.bytes);
  const StepId reduced = append_local_reduce(s, a, send_buf(), partial, a.bytes, kNoStep);
  StepId have = kNoStep;
  if (a.rank == 0) {
    s.send(inter_peer(a, 0), partial, a.bytes, {reduced});
    have = s.recv(inter_peer(a, 0), recv_buf(), a.bytes);
  }
  append_local_bcast(s, a, recv_buf(), a.bytes, have);
}

Cost cost(const CollArgs& a) {
  const double rounds = ceil_log2(a.size);
  return {2 * rounds + 1, (2 * rounds + 1) * double(a.bytes), rounds * double(a.bytes)};
}

}  // namespace

extern const Algorithm kInterAllreduce{"inter", CollKind::kAllreduce, nullptr, cost, build};

}  // namespace weft::coll
