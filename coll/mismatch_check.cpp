// WEFT_CHECK_COLLECTIVES=1: every member's description of its call, gathered on a context no
// other traffic uses, compared with this rank's in what MPI 4.1 chapter 6 requires to match.
#include "coll/mismatch_check.hpp"

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "coll/coll_op.hpp"
#include "coll/regular_call.hpp"
#include "runtime/world.hpp"

namespace weft::coll {
namespace {

// bytes of a call whose amounts are not compared (the v-variants, neighbourhood collectives).
constexpr uint64_t kNotCompared = UINT64_MAX;

// What one rank says about its call.
struct CallDescriptor {
  CallLabel label;
  int32_t kind = 0;
  int32_t root = -1;  // -1: not a rooted collective
  uint64_t bytes = kNotCompared;
};

// The data every rank must agree on, in bytes of the type signature: the vector of broadcast and
// the reductions (MPI 4.1 §6.4, §6.9.1), the one block of the regular gathers, scatters and
// all-to-all (§6.5-§6.8), the whole input of reduce-scatter, whose recvcounts every rank passes
// alike (§6.10.1). The v-variants match amounts pair by pair, which a fixed-size description
// cannot carry.
uint64_t agreed_bytes(const CollArgs& a) {
  switch (a.kind) {
    case CollKind::kBarrier:
      return 0;
    case CollKind::kBcast:
    case CollKind::kReduce:
    case CollKind::kAllreduce:
    case CollKind::kScan:
    case CollKind::kExscan:
    case CollKind::kReduceScatter:
      return a.bytes;
    case CollKind::kGather:
    case CollKind::kScatter:
    case CollKind::kAllgather:
      return a.uniform && !a.blocks.empty() ? a.blocks[0].bytes : kNotCompared;
    case CollKind::kAlltoall:
      return a.uniform && !a.recv_blocks.empty() ? a.recv_blocks[0].bytes : kNotCompared;
    case CollKind::kNeighborAllgather:
    case CollKind::kNeighborAlltoall:
      return kNotCompared;
  }
  return kNotCompared;
}

bool rooted(CollKind kind) {
  return kind == CollKind::kBcast || kind == CollKind::kReduce || kind == CollKind::kGather ||
         kind == CollKind::kScatter;
}

// Collectives where MPI_IN_PLACE is given at all processes or at none (MPI 4.1 §6.7, §6.8,
// §6.9.6, §6.10); elsewhere it is the root's own business (§6.5, §6.6, §6.9.1) or a rank's.
bool in_place_everywhere(CollKind kind) {
  return kind == CollKind::kAllgather || kind == CollKind::kAlltoall ||
         kind == CollKind::kAllreduce || kind == CollKind::kReduceScatter;
}

CallDescriptor describe(const CallSpec& spec) {
  CallDescriptor d;
  d.label = spec.label;
  d.kind = int32_t(spec.args.kind);
  d.root = rooted(spec.args.kind) ? spec.args.root : -1;
  d.bytes = agreed_bytes(spec.args);
  return d;
}

// The function without its large-count suffix: MPI_Bcast_c matches MPI_Bcast.
std::string_view base_name(const char* fn) {
  std::string_view name(fn);
  if (name.size() > 2 && name.substr(name.size() - 2) == "_c") name.remove_suffix(2);
  return name;
}

bool predefined_op(int32_t op) { return op >= 0 && op_name(op).rfind("MPI_", 0) == 0; }

// Whether two calls match where the standard says they must. The function names separate
// blocking, nonblocking and persistent forms, which never match each other (MPI 4.1 §6.12,
// §6.13); user ops are local handles, so only predefined ones are compared.
bool same_call(const CallDescriptor& a, const CallDescriptor& b) {
  if (base_name(a.label.fn) != base_name(b.label.fn) || a.kind != b.kind || a.root != b.root)
    return false;
  if (a.bytes != b.bytes) return false;
  if (in_place_everywhere(CollKind(a.kind)) && a.label.in_place != b.label.in_place) return false;
  const bool ops_known = predefined_op(a.label.op) || predefined_op(b.label.op);
  return !ops_known || a.label.op == b.label.op;
}

// "MPI_Allreduce(count=4, MPI_INT, MPI_SUM)".
std::string show(const CallDescriptor& d) {
  std::vector<std::string> parts;
  if (d.label.in_place) parts.emplace_back("MPI_IN_PLACE");
  if (d.label.count >= 0) parts.push_back("count=" + std::to_string(d.label.count));
  if (d.label.type[0] != '\0') parts.emplace_back(d.label.type);
  if (d.label.op >= 0) parts.push_back(op_name(d.label.op));
  if (d.root >= 0) parts.push_back("root=" + std::to_string(d.root));
  std::string text = std::string(d.label.fn) + "(";
  for (size_t i = 0; i < parts.size(); ++i) text += (i > 0 ? ", " : "") + parts[i];
  return text + ")";
}

// Every member's description, in rank order. The allgather runs on a stand-in for `comm` whose
// collective context is comm's point-to-point context with the internal bit set, which nothing
// else uses (user traffic never carries the bit; the temporary communicators of
// MPI_Comm_create_group and MPI_Comm_idup use it on collective contexts only), numbered like
// comm's own calls; so the exchanges of two different calls can never meet.
Status exchange(const Comm& comm, const CallDescriptor& mine, std::vector<CallDescriptor>* all) {
  Comm stand_in;
  stand_in.world_ranks = comm.world_ranks;
  stand_in.rank = comm.rank;
  stand_in.size = comm.size;
  stand_in.context = comm.context - 1;  // coll_context() is comm.context
  stand_in.internal = true;
  stand_in.coll_seq = comm.coll_seq;
  stand_in.name = comm.display_name() + " (collective check)";
  all->resize(size_t(comm.size));
  CallSpec spec;
  spec.args.kind = CollKind::kAllgather;
  spec.args.blocks = packed_blocks(comm.size, sizeof mine);
  spec.binding.send = &mine;
  spec.binding.recv = all->data();
  // Its own operation object, so that the one of blocking calls keeps its schedule (and one per
  // call under MPI_THREAD_MULTIPLE, where threads check collectives at once).
  if (call_lock::multiple()) {
    CollOp own;
    return run_to_completion(own, stand_in, spec);
  }
  static CollOp op;
  return run_to_completion(op, stand_in, spec);
}

}  // namespace

Status check_matching_calls(Comm& comm, const CallSpec& spec) {
  if (!world().check_collectives || spec.label.fn[0] == '\0' || comm.internal)
    return Status::success();
  const CallDescriptor mine = describe(spec);
  std::vector<CallDescriptor> all;
  WEFT_TRY(exchange(comm, mine, &all));
  for (size_t r = 0; r < all.size(); ++r) {
    if (same_call(mine, all[r])) continue;
    return Status::error(MPI_ERR_OTHER, "collective mismatch on " + comm.display_name() +
                                            " (call #" + std::to_string(comm.coll_seq + 1) +
                                            "): this rank (" + std::to_string(comm.rank) +
                                            ") called " + show(mine) + " but rank " +
                                            std::to_string(r) + " called " + show(all[r]));
  }
  return Status::success();
}

}  // namespace weft::coll
