// Intercommunicators: a local group, a remote group and a context pair both groups agreed on
// through their leaders, plus a private context pair for the local phases of collectives
// (Comm::local). Creation (MPI_Intercomm_create), merging, and the intercommunicator forms of
// dup, split and create. MPI 4.1 §7.6.
#pragma once
#include <functional>

#include "runtime/comm/comm.hpp"
#include "runtime/comm/group_ops.hpp"

namespace weft {

// The leader's way to the other group in MPI_Intercomm_create: `peer` (its peer_comm; null when
// its arguments were bad: then `leader_args` says why) and the remote leader's rank there.
struct LeaderLink {
  const Comm* peer = nullptr;
  int remote_leader = 0;
  int tag = 0;
  Status leader_args;
};

// MPI_Intercomm_create, collective over `local` (an intracommunicator); `link` matters at
// `local_leader` only. Fails alike on every rank when the leader's arguments are bad or the
// groups overlap.
Status intercomm_create(Comm& local, int local_leader, const LeaderLink& link, MPI_Comm* out);
// MPI_Intercomm_merge: the group that passed high = false comes first; with equal flags, the
// group whose rank 0 has the lower (namespace, rank) name (runtime/world.hpp process_name): the
// lower MPI_COMM_WORLD rank within one job.
Status intercomm_merge(Comm& inter, bool high, MPI_Comm* out);
// The intercommunicator forms of MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create (`group`: a
// subgroup of the local group; MPI_COMM_NULL where either side would be empty).
Status inter_dup(Comm& inter, MPI_Comm* out);
Status inter_split(Comm& inter, int color, int key, MPI_Comm* out);
Status inter_create(Comm& inter, const groups::Members& group, MPI_Comm* out);
// The pieces runtime/comm/connect.cpp builds its intercommunicators from: the leaders'
// blocking exchange over link.peer (its point-to-point context with the internal bit set, so no
// user receive takes it); the `n` lowest context pairs free in both groups, found window by
// window, where `combine` ANDs a window's free mask over both groups (members take them); and
// the registration of an intercommunicator on pairs[0] with its local phases on pairs[1].
Status leader_swap(const LeaderLink& link, const void* mine, size_t mine_bytes, void* theirs,
                   size_t their_bytes);
// The `n` lowest pairs set in window `window`'s free mask into `pairs`, cleared in `mask`;
// returns how many there were (n at most).
int lowest_pairs(uint32_t window, uint64_t* mask, int n, uint32_t* pairs);
using AndOverMembers = std::function<Status(uint64_t* words, size_t n)>;
Status agree_pairs(bool member, int n, const AndOverMembers& combine, uint32_t* pairs);
// The two pairs of a new intercommunicator, free in both groups: each group ANDs its members'
// free masks, the leaders (local rank `leader`, whose `link` reaches the other leader) swap and
// AND theirs, and each leader broadcasts the result in its group. Collective over `local`.
Status agree_inter_pairs(Comm& local, int leader, const LeaderLink& link, uint32_t pairs[2]);
MPI_Comm register_inter(const groups::Members& local, const groups::Members& remote,
                        const uint32_t pairs[2], CommOrigin origin);
// MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL for two communicators, either kind.
int compare_comms(const Comm& a, const Comm& b);

}  // namespace weft
