// Local phases of intercommunicator collectives, built by the intracommunicator algorithms.
#include "coll/algorithms/inter_parts.hpp"

#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"

namespace weft::coll {

CollArgs local_args(const CollArgs& a, CollKind kind) { return part_args(a, kind, a.size, a.rank); }

StepId append_local_reduce(Schedule& s, const CollArgs& a, BufRef input, BufRef out, size_t bytes,
                           StepId after) {
  CollArgs l = local_args(a, CollKind::kReduce);
  l.bytes = bytes;
  // Binomial reduce keeps rank order, so non-commutative ops are reduced correctly.
  return append_algorithm(s, kReduceBinomial, l, input, out, after);
}

StepId append_local_bcast(Schedule& s, const CollArgs& a, BufRef buf, size_t bytes, StepId after) {
  CollArgs l = local_args(a, CollKind::kBcast);
  l.bytes = bytes;
  return append_algorithm(s, kBcastBinomial, l, buf, buf, after);
}

StepId append_local_barrier(Schedule& s, const CollArgs& a, StepId after) {
  return append_algorithm(s, kBarrierDissemination, local_args(a, CollKind::kBarrier), send_buf(),
                          recv_buf(), after);
}

StepId append_local_scatter(Schedule& s, const CollArgs& a, BufRef input, BufRef out,
                            StepId after) {
  CollArgs l = local_args(a, CollKind::kScatter);
  l.blocks = a.blocks;
  l.uniform = a.uniform;
  return append_algorithm(s, kScatterLinear, l, input, out, after);
}

void build_inter_rooted_linear(const CollArgs& a, Schedule& s, bool to_root) {
  if (a.root == CollArgs::kRootHere) {
    for (int r = 0; r < a.remote_size; ++r) {
      const Block& b = a.blocks[size_t(r)];
      if (to_root) {
        s.recv(inter_peer(a, r), recv_buf(b.offset), b.bytes);
      } else {
        s.send(inter_peer(a, r), send_buf(b.offset), b.bytes);
      }
    }
  } else if (a.root != CollArgs::kRootNone) {
    if (to_root) {
      s.send(inter_peer(a, a.root), send_buf(), a.bytes);
    } else {
      s.recv(inter_peer(a, a.root), recv_buf(), a.bytes);
    }
  }
}

Cost inter_rooted_linear_cost(const CollArgs& a) {
  return {double(a.remote_size), double(a.total_block_bytes() + a.bytes), 0};
}

}  // namespace weft::coll
