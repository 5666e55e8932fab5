// Intercommunicator reduce-scatter(-block): each group reduces its whole vector to its rank 0,
// the leaders swap their groups' results, and each leader scatters the other group's result
// over its group by the local blocks (MPI 4.1 §6.10; the method of MPICH's intercomm
// reduce_scatter). Cost: ceil(log2 p)·(α + nβ + nγ) + α + nβ + (p-1)·α + nβ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/inter_parts.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const size_t total = a.total_block_bytes();
  const BufRef partial = s.scratch(total);
  const BufRef theirs = s.scratch(total);
  const StepId reduced = append_local_reduce(s, a, send_buf(), partial, total, kNoStep);
  StepId have = kNoStep;
  if (a.rank == 0) {
    s.send(inter_peer(a, 0), partial, total, {reduced});
    have = s.recv(inter_peer(a, 0), theirs, total);
  }
  append_local_scatter(s, a, theirs, recv_buf(), have);
}

Cost cost(const CollArgs& a) {
  const double n = double(a.total_block_bytes()), rounds = ceil_log2(a.size);
  return {rounds + a.size, (rounds + 2) * n, rounds * n};
}

}  // namespace

extern const Algorithm kInterReduceScatter{"inter", CollKind::kReduceScatter, nullptr, cost, build};

}  // namespace weft::coll
