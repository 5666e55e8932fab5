// Communicator construction over a parent, with the internal collectives it needs.
#include "runtime/comm/create.hpp"

#include <algorithm>

#include "coll/coll.hpp"
#include "coll/regular_call.hpp"
#include "pt2pt/buffered.hpp"
#include "runtime/comm/attributes.hpp"
#include "runtime/comm/errhandler.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/comm/intercomm.hpp"
#include "runtime/comm/nodes.hpp"
#include "runtime/world.hpp"

namespace weft {
namespace {

// Bitwise AND of `n` words over `comm`, in place.
Status allreduce_and(Comm& comm, uint64_t* words, size_t n) {
  coll::CallSpec spec = bitwise_and_call(words, n);
  return coll::run_blocking(comm, spec);
}

// The communicator for `members` on a newly agreed context, or MPI_COMM_NULL for a non-member.
Status build(Comm& parent, const groups::Members& members, MPI_Comm* out) {
  const bool member = groups::rank_of(members, my_world_rank()) != MPI_UNDEFINED;
  uint32_t pair = 0;
  WEFT_TRY(agree_context(parent, member, &pair));
  *out = member ? register_comm(members, pair, origin_of(parent)) : MPI_COMM_NULL;
  if (member) inherit_nodes(parent, *world().comms.find(*out));
  return Status::success();
}

}  // namespace

Status internal_allgather(Comm& comm, const void* mine, size_t bytes, void* all) {
  coll::CallSpec spec;
  spec.args.kind = coll::CollKind::kAllgather;
  spec.args.blocks = coll::packed_blocks(comm.size, bytes);
  spec.binding.send = mine;
  spec.binding.recv = all;
  return coll::run_blocking(comm, spec);
}

Status internal_bcast(Comm& comm, void* buf, size_t bytes, int root) {
  coll::CallSpec spec;
  spec.args.kind = coll::CollKind::kBcast;
  spec.args.root = root;
  spec.args.bytes = bytes;
  spec.binding.recv = buf;
  return coll::run_blocking(comm, spec);
}

Status internal_barrier(Comm& comm) {
  coll::CallSpec spec;
  spec.args.kind = coll::CollKind::kBarrier;
  return coll::run_blocking(comm, spec);
}

coll::CallSpec bitwise_and_call(uint64_t* words, size_t n) {
  coll::CallSpec spec;
  spec.args.kind = coll::CollKind::kAllreduce;
  spec.args.bytes = n * sizeof(uint64_t);
  spec.args.elem_size = sizeof(uint64_t);
  spec.args.in_place = true;
  // MPI_BAND is defined on MPI_UINT64_T: binding cannot fail.
  (void)world().ops.bind(MPI_BAND, MPI_UINT64_T, sizeof(uint64_t), &spec.reduction);
  spec.binding.send = spec.binding.recv = words;
  return spec;
}

int my_world_rank() { return world().comms.find(MPI_COMM_WORLD)->rank; }

Status agree_context(Comm& comm, bool member, uint32_t* pair) {
  return agree_pairs(
      member, 1, [&comm](uint64_t* words, size_t n) { return allreduce_and(comm, words, n); },
      pair);
}

MPI_Comm register_comm(const groups::Members& members, uint32_t pair, CommOrigin origin) {
  auto c = std::make_unique<Comm>();
  c->world_ranks = members;
  c->size = int(members.size());
  c->rank = groups::rank_of(members, my_world_rank());
  c->context = 2 * pair;
  c->errhandler = origin.errhandler;
  c->session = origin.session;
  errhandler_retain(origin.errhandler);
  return world().comms.add(std::move(c));
}

Status comm_dup(Comm& parent, DupHints hints, MPI_Comm* out) {
  WEFT_TRY(parent.is_inter() ? inter_dup(parent, out) : build(parent, parent.world_ranks, out));
  world().comms.find(*out)->topology = parent.topology;  // a duplicate keeps the topology
  return finish_dup(parent.handle, hints, out);
}

Status finish_dup(MPI_Comm parent, DupHints hints, MPI_Comm* made) {
  // A duplicate of a stream communicator is one too, on the same stream (as MPICH's).
  if (const Comm* p = world().comms.find(parent); p != nullptr && p->has_stream) {
    Comm* m = world().comms.find(*made);
    m->has_stream = true;
    m->stream = p->stream;
    m->stream_queue = p->stream_queue;
  }
  Status s = Status::success();
  if (hints.from_parent) {
    comm_info_on_dup(parent, *made);
  } else {
    s = comm_info_set(*made, hints.info);  // MPI_INFO_NULL: no hints
  }
  if (s.ok()) s = attributes_on_comm_dup(parent, *made);
  if (s.ok()) return s;
  const Comm* c = world().comms.find(*made);
  comm_info_on_free(*made);
  errhandler_release(c->errhandler);
  world().comms.retire(*made);
  *made = MPI_COMM_NULL;
  return s;
}

Status comm_free(MPI_Comm handle) {
  WEFT_TRY(attributes_on_comm_free(handle));
  pt2pt::forget_buffer(pt2pt::BufferScope::comm(handle));  // a later one with this handle has none
  comm_info_on_free(handle);
  errhandler_release(world().comms.find(handle)->errhandler);
  world().comms.retire(handle);
  return Status::success();
}

groups::Members split_members(const std::vector<int>& color_key, const groups::Members& ranks,
                              int color) {
  std::vector<std::pair<int, int>> chosen;  // (key, rank) of the ranks with `color`
  if (color != MPI_UNDEFINED) {
    for (size_t r = 0; r < ranks.size(); ++r)
      if (color_key[2 * r] == color) chosen.emplace_back(color_key[2 * r + 1], int(r));
  }
  std::stable_sort(chosen.begin(), chosen.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  groups::Members members;
  for (const auto& [k, r] : chosen) members.push_back(ranks[size_t(r)]);
  return members;
}

Status comm_split(Comm& parent, int color, int key, MPI_Comm* out) {
  if (parent.is_inter()) return inter_split(parent, color, key, out);
  const int mine[2] = {color, key};
  std::vector<int> all(2 * size_t(parent.size));
  WEFT_TRY(internal_allgather(parent, mine, sizeof mine, all.data()));
  const groups::Members members = split_members(all, parent.world_ranks, color);
  uint32_t pair = 0;
  WEFT_TRY(agree_context(parent, color != MPI_UNDEFINED, &pair));
  *out = color == MPI_UNDEFINED ? MPI_COMM_NULL : register_comm(members, pair, origin_of(parent));
  if (color != MPI_UNDEFINED) inherit_nodes(parent, *world().comms.find(*out));
  return Status::success();
}

Status comm_create(Comm& parent, const groups::Members& group, MPI_Comm* out) {
  return parent.is_inter() ? inter_create(parent, group, out) : build(parent, group, out);
}

Status agree_among(const groups::Members& group, uint32_t context, uint32_t tag, const char* name,
                   uint32_t* pair) {
  // A temporary communicator of the members that shares `context` with the internal bit set;
  // `tag` offsets its collective sequence numbers.
  Comm members;
  members.world_ranks = group;
  members.size = int(group.size());
  members.rank = groups::rank_of(group, my_world_rank());
  members.context = context;
  members.internal = true;
  members.coll_seq = (tag << 6) & (kIdupSeqBit - 1);
  members.name = name;
  return agree_context(members, true, pair);
}

Status comm_create_group(Comm& parent, const groups::Members& group, int tag, MPI_Comm* out) {
  uint32_t pair = 0;
  WEFT_TRY(agree_among(group, parent.context, uint32_t(tag), "the group of MPI_Comm_create_group",
                       &pair));
  *out = register_comm(group, pair, origin_of(parent));
  return Status::success();
}

}  // namespace weft
