// Selection by the cost model.
#include "coll/select.hpp"

#include <cstdint>
#include <cstring>

#include "coll/nccl_call.hpp"
#include "coll/registry.hpp"
#include "mpi.h"

namespace weft::coll {

double predict_seconds(const Cost& c, const CostModel& m, bool spans_nodes) {
  const double far_rounds = spans_nodes ? c.rounds - c.node_rounds : 0;
  const double far_bytes = spans_nodes ? c.bytes - c.node_bytes : 0;
  return (c.rounds - far_rounds) * m.alpha_us * 1e-6 + far_rounds * m.alpha_inter_us * 1e-6 +
         (c.bytes - far_bytes) * m.beta_ns_per_byte * 1e-9 +
         far_bytes * m.beta_inter_ns_per_byte * 1e-9 + c.reduced * m.gamma_ns_per_byte * 1e-9 +
         c.syncs * m.alpha_region_us * 1e-6 + c.region_bytes * m.beta_region_ns_per_byte * 1e-9;
}

std::string rejection_reason(const Algorithm& a, const CollArgs& args) {
  if (a.accepts == nullptr || a.accepts(args)) return "";
  if (a.node_aware && !spans_nodes(args)) {
    return args.nodes == nullptr ? "needs a communicator known to span several nodes"
                                 : "needs a communicator that spans several nodes";
  }
  if (a.node_region) {
    if (args.region_bytes == 0) {
      return "needs the communicator's node region (every rank on this node, over shared "
             "memory; WEFT_SHM_COLL)";
    }
    CollArgs roomy = args;
    roomy.region_bytes = SIZE_MAX;
    if (a.accepts(roomy)) {
      return "needs at most " + std::to_string(args.region_bytes) +
             " bytes per rank (WEFT_SHM_COLL_BYTES)";
    }
  }
  CollArgs lifted = args;
  lifted.commutative = true;
  const bool op = !args.commutative && a.accepts(lifted);
  lifted = args;
  lifted.uniform = true;
  const bool blocks = !args.uniform && a.accepts(lifted);
  if (op) {
    return a.node_aware ? "needs a commutative op, or each node's ranks consecutive"
                        : "needs a commutative op";
  }
  if (blocks) return "needs equal blocks that every rank knows (not a v-variant)";
  lifted.commutative = true;
  if (a.accepts(lifted)) return "needs a commutative op and equal blocks (not a v-variant)";
  return "cannot take this call";
}

Status Selector::force(CollKind kind, const std::string& name) {
  const bool nccl = nccl_runs(kind) && name == "nccl";
  const Algorithm* a = find_algorithm(kind, name);
  if (a == nullptr && !nccl && !name.empty() && name != "auto") {
    const char* article = std::strchr("aeiou", coll_name(kind)[0]) ? "an " : "a ";
    return Status::error(MPI_ERR_ARG, "'" + name + "' is not " + article + coll_name(kind) +
                                          " algorithm (choose from: " + algorithm_names(kind) +
                                          (nccl_runs(kind) ? ", nccl" : "") + ", auto)");
  }
  forced_[int(kind)] = a;
  nccl_forced_[int(kind)] = nccl;
  return Status::success();
}

std::vector<Candidate> Selector::candidates(const CollArgs& args) const {
  std::vector<Candidate> out;
  for (const Algorithm* a : algorithms_for(args.kind)) {
    Candidate c{a, a->accepts == nullptr || a->accepts(args), 0};
    if (c.accepts) c.seconds = predict_seconds(a->cost(args), model_, spans_nodes(args));
    out.push_back(c);
  }
  return out;
}

const Algorithm* Selector::choose(const CollArgs& args) const {
  // Intercommunicators have one algorithm per collective; WEFT_<COLL>_ALGORITHM names
  // intracommunicator algorithms.
  if (args.remote_size > 0) return inter_algorithm(args.kind);
  const Algorithm* f = forced_[int(args.kind)];
  if (f != nullptr && (f->accepts == nullptr || f->accepts(args))) return f;
  const Algorithm* best = nullptr;
  double best_seconds = 0;
  for (const Algorithm* a : algorithms_for(args.kind)) {
    if (a->accepts != nullptr && !a->accepts(args)) continue;
    const double t = predict_seconds(a->cost(args), model_, spans_nodes(args));
    if (best == nullptr || t < best_seconds) {
      best = a;
      best_seconds = t;
    }
  }
  return best;
}

}  // namespace weft::coll
