// Intercommunicator construction: leaders swap groups and free context masks; every member
// takes the lowest two pairs free in both groups (one for the intercommunicator, one for its
// local phases).
#include "runtime/comm/intercomm.hpp"

#include <algorithm>

#include "coll/regular_call.hpp"
#include "pt2pt/pt2pt.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft {
namespace {

constexpr uint32_t kWindows = ContextIds::kPairs / ContextIds::kWindowPairs;

}  // namespace

Status leader_swap(const LeaderLink& link, const void* mine, size_t mine_bytes, void* theirs,
            size_t their_bytes) {
  Comm way = *link.peer;
  way.internal = true;
  Request send, recv;
  WEFT_TRY(pt2pt::start_recv(way, theirs, their_bytes, link.remote_leader, link.tag, &recv));
  WEFT_TRY(pt2pt::start_send(way, mine, mine_bytes, link.remote_leader, link.tag,
                             pt2pt::SendMode::kStandard, &send));
  pt2pt::wait(&send);
  pt2pt::wait(&recv);
  const int failed =
      send.completion.error_class ? send.completion.error_class : recv.completion.error_class;
  if (failed == 0) return Status::success();
  return Status::error(failed,
                       "the exchange between the leaders over peer_comm failed (do "
                       "both leaders pass the same tag?)");
}

namespace {

// Collectives of an intercommunicator's local group that the library runs for itself: on the
// local pair's point-to-point context used as a collective context (nothing else uses it), so
// they never meet the local phases of the intercommunicator's own collectives.
Status run_local(Comm& inter, coll::CallSpec& spec) {
  Comm ops = *inter.local;
  ops.context = inter.local->context - 1;  // coll_context() is local->context
  Status s = coll::run_blocking(ops, spec);
  inter.local->coll_seq = ops.coll_seq;
  return s;
}

}  // namespace

int lowest_pairs(uint32_t window, uint64_t* mask, int n, uint32_t* pairs) {
  int found = 0;
  for (; found < n; ++found) {
    const int64_t pair = lowest_free(window, mask);
    if (pair < 0) break;
    pairs[found] = uint32_t(pair);
    const uint32_t bit = uint32_t(pair) % ContextIds::kWindowPairs;
    mask[bit / 64] &= ~(uint64_t{1} << (bit % 64));
  }
  return found;
}

Status agree_pairs(bool member, int n, const AndOverMembers& combine, uint32_t* pairs) {
  ContextIds& ids = world().comms.context_ids();
  uint64_t mask[ContextIds::kWindowWords];
  for (uint32_t window = 0; window < kWindows;) {
    ids.free_mask(window, mask);
    WEFT_TRY(combine(mask, ContextIds::kWindowWords));
    if (lowest_pairs(window, mask, n, pairs) < n) {
      ++window;
      continue;
    }
    if (!call_lock::multiple()) {
      for (int i = 0; member && i < n; ++i) ids.take(pairs[i]);
      return Status::success();
    }
    // Under MPI_THREAD_MULTIPLE another thread of this process may have taken a pair for a
    // communicator of its own while a collective let go of the call lock: reserve them, confirm
    // that every member could, else release them and look again (as MPI_Comm_idup does).
    bool reserved = member;
    for (int i = 0; reserved && i < n; ++i) reserved = ids.is_free(pairs[i]);
    for (int i = 0; reserved && i < n; ++i) ids.take(pairs[i]);
    uint64_t agreed = !member || reserved ? 1 : 0;
    WEFT_TRY(combine(&agreed, 1));
    if (agreed == 1) return Status::success();
    for (int i = 0; reserved && i < n; ++i) ids.release(pairs[i]);
    window = 0;
  }
  return Status::error(MPI_ERR_INTERN, "out of communicator context ids (" +
                                           std::to_string(ContextIds::kPairs) +
                                           " communicators exist; free some with MPI_Comm_free)");
}

namespace {

// An allreduce (MPI_BAND on MPI_UINT64_T) of `n` words over an intercommunicator: `theirs`
// gets the AND over the remote group of its `mine`.
Status remote_and(Comm& inter, const uint64_t* mine, uint64_t* theirs, size_t n) {
  coll::CallSpec spec = bitwise_and_call(theirs, n);
  spec.args.in_place = false;
  spec.binding.send = mine;
  return coll::run_blocking(inter, spec);
}

// Pairs free on every rank of both groups of `inter`.
Status agree_inter_pairs(Comm& inter, bool member, int n, uint32_t* pairs) {
  return agree_pairs(
      member, n,
      [&inter](uint64_t* mask, size_t n) {
        coll::CallSpec local = bitwise_and_call(mask, n);
        WEFT_TRY(run_local(inter, local));
        uint64_t theirs[ContextIds::kWindowWords];
        WEFT_TRY(remote_and(inter, mask, theirs, n));
        for (size_t i = 0; i < n; ++i) mask[i] &= theirs[i];
        return Status::success();
      },
      pairs);
}

// Every rank's `bytes` of `mine` from the remote group, in remote rank order.
Status remote_allgather(Comm& inter, const void* mine, size_t bytes, void* all) {
  coll::CallSpec spec;
  spec.args.kind = coll::CollKind::kAllgather;
  spec.args.bytes = bytes;
  spec.args.blocks = coll::packed_blocks(inter.remote_size(), bytes);
  spec.binding.send = mine;
  spec.binding.recv = all;
  return coll::run_blocking(inter, spec);
}

}  // namespace

MPI_Comm register_inter(const groups::Members& local, const groups::Members& remote,
                        const uint32_t pairs[2], CommOrigin origin) {
  const MPI_Comm handle = register_comm(local, pairs[0], origin);
  Comm* c = world().comms.find(handle);
  c->remote_world_ranks = remote;
  c->local = std::make_shared<Comm>();
  c->local->world_ranks = local;
  c->local->rank = c->rank;
  c->local->size = c->size;
  c->local->context = 2 * pairs[1];
  c->local->name = "the local group of intercommunicator " + std::to_string(handle);
  return handle;
}

namespace {

Status overlap_check(const groups::Members& local, const groups::Members& remote) {
  for (int w : remote) {
    if (groups::rank_of(local, w) == MPI_UNDEFINED) continue;
    return Status::error(MPI_ERR_COMM, "the local and remote groups overlap (MPI_COMM_WORLD rank " +
                                           std::to_string(w) + " is in both)");
  }
  return Status::success();
}

}  // namespace

Status intercomm_create(Comm& local, int local_leader, const LeaderLink& link, MPI_Comm* out) {
  const bool leader = local.rank == local_leader;
  // The leaders swap their groups; the leader tells its group how that went.
  Status at_leader = link.leader_args;
  uint64_t header[2] = {0, 0};  // error class at the leader (0: none), remote group size
  groups::Members remote;
  if (leader && at_leader.ok()) {
    const uint64_t mine = local.world_ranks.size();
    at_leader = leader_swap(link, &mine, sizeof mine, &header[1], sizeof header[1]);
    if (at_leader.ok()) {
      remote.resize(size_t(header[1]));
      at_leader = leader_swap(link, local.world_ranks.data(), mine * sizeof(int), remote.data(),
                       remote.size() * sizeof(int));
    }
  }
  if (leader) header[0] = uint64_t(at_leader.error_class);
  WEFT_TRY(internal_bcast(local, header, sizeof header, local_leader));
  if (leader && !at_leader.ok()) return at_leader;
  if (header[0] != 0) {
    return Status::error(int(header[0]), "the local leader (rank " + std::to_string(local_leader) +
                                             " of local_comm) failed; see its error");
  }
  remote.resize(size_t(header[1]));
  WEFT_TRY(internal_bcast(local, remote.data(), remote.size() * sizeof(int), local_leader));
  WEFT_TRY(overlap_check(local.world_ranks, remote));
  uint32_t pairs[2];
  WEFT_TRY(agree_inter_pairs(local, local_leader, link, pairs));
  *out = register_inter(local.world_ranks, remote, pairs, origin_of(local));
  return Status::success();
}

Status agree_inter_pairs(Comm& local, int leader, const LeaderLink& link, uint32_t pairs[2]) {
  return agree_pairs(
      true, 2,
      [&](uint64_t* mask, size_t n) {
        const size_t bytes = n * sizeof(uint64_t);
        coll::CallSpec and_local = bitwise_and_call(mask, n);
        WEFT_TRY(coll::run_blocking(local, and_local));
        if (local.rank == leader) {
          uint64_t theirs[ContextIds::kWindowWords];
          WEFT_TRY(leader_swap(link, mask, bytes, theirs, bytes));
          for (size_t i = 0; i < n; ++i) mask[i] &= theirs[i];
        }
        return internal_bcast(local, mask, bytes, leader);
      },
      pairs);
}

Status intercomm_merge(Comm& inter, bool high, MPI_Comm* out) {
  const uint64_t mine = high ? 1 : 0;
  uint64_t theirs = 0;
  WEFT_TRY(remote_and(inter, &mine, &theirs, 1));
  const bool local_first =
      mine != theirs ? !high
                     : process_name(inter.world_ranks[0]) < process_name(inter.remote_world_ranks[0]);
  const groups::Members& first = local_first ? inter.world_ranks : inter.remote_world_ranks;
  const groups::Members& second = local_first ? inter.remote_world_ranks : inter.world_ranks;
  groups::Members members = first;
  members.insert(members.end(), second.begin(), second.end());
  uint32_t pair = 0;
  WEFT_TRY(agree_inter_pairs(inter, true, 1, &pair));
  *out = register_comm(members, pair, origin_of(inter));
  return Status::success();
}

Status inter_dup(Comm& inter, MPI_Comm* out) {
  uint32_t pairs[2];
  WEFT_TRY(agree_inter_pairs(inter, true, 2, pairs));
  *out = register_inter(inter.world_ranks, inter.remote_world_ranks, pairs, origin_of(inter));
  return Status::success();
}

Status inter_split(Comm& inter, int color, int key, MPI_Comm* out) {
  const int mine[2] = {color, key};
  std::vector<int> local_all(2 * size_t(inter.size)), remote_all(2 * size_t(inter.remote_size()));
  coll::CallSpec gather_local;
  gather_local.args.kind = coll::CollKind::kAllgather;
  gather_local.args.blocks = coll::packed_blocks(inter.size, sizeof mine);
  gather_local.binding.send = mine;
  gather_local.binding.recv = local_all.data();
  WEFT_TRY(run_local(inter, gather_local));
  WEFT_TRY(remote_allgather(inter, mine, sizeof mine, remote_all.data()));
  const groups::Members local = split_members(local_all, inter.world_ranks, color);
  const groups::Members remote = split_members(remote_all, inter.remote_world_ranks, color);
  const bool member = color != MPI_UNDEFINED && !remote.empty();
  uint32_t pairs[2];
  WEFT_TRY(agree_inter_pairs(inter, member, 2, pairs));
  *out = member ? register_inter(local, remote, pairs, origin_of(inter)) : MPI_COMM_NULL;
  return Status::success();
}

Status inter_create(Comm& inter, const groups::Members& group, MPI_Comm* out) {
  // Each rank's place in its group's argument (or MPI_UNDEFINED) orders the remote group.
  const int place = groups::rank_of(group, my_world_rank());
  std::vector<int> places(size_t(inter.remote_size()));
  WEFT_TRY(remote_allgather(inter, &place, sizeof place, places.data()));
  std::vector<std::pair<int, int>> chosen;  // (place, world rank)
  for (size_t r = 0; r < places.size(); ++r)
    if (places[r] != MPI_UNDEFINED) chosen.emplace_back(places[r], inter.remote_world_ranks[r]);
  std::sort(chosen.begin(), chosen.end());
  groups::Members remote;
  for (const auto& [p, w] : chosen) remote.push_back(w);
  const bool member = place != MPI_UNDEFINED && !remote.empty();
  uint32_t pairs[2];
  WEFT_TRY(agree_inter_pairs(inter, member, 2, pairs));
  *out = member ? register_inter(group, remote, pairs, origin_of(inter)) : MPI_COMM_NULL;
  return Status::success();
}

int compare_comms(const Comm& a, const Comm& b) {
  if (&a == &b) return MPI_IDENT;
  if (a.is_inter() != b.is_inter()) return MPI_UNEQUAL;
  const int local = groups::compare(a.world_ranks, b.world_ranks);
  const int remote =
      a.is_inter() ? groups::compare(a.remote_world_ranks, b.remote_world_ranks) : MPI_IDENT;
  if (local == MPI_IDENT && remote == MPI_IDENT) return MPI_CONGRUENT;
  if (local != MPI_UNEQUAL && remote != MPI_UNEQUAL) return MPI_SIMILAR;
  return MPI_UNEQUAL;
}

}  // namespace weft
