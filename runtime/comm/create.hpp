// Creating communicators, collectively over a parent: the members agree on a context pair (see
// runtime/comm/context_ids.hpp) and each builds the same ordered list of world ranks.
#pragma once
#include "coll/coll.hpp"
#include "runtime/comm/comm.hpp"
#include "runtime/comm/group_ops.hpp"

namespace weft {

// The hints a duplicate gets: the parent's (MPI_Comm_dup, MPI_Comm_idup), or those of `info`
// (MPI_Comm_dup_with_info, MPI_Comm_idup_with_info), none when that is MPI_INFO_NULL.
struct DupHints {
  bool from_parent = true;
  MPI_Info info = MPI_INFO_NULL;

  static DupHints parent() { return {}; }
  static DupHints given(MPI_Info info) { return {false, info}; }
};

// MPI_Comm_dup's work (dup, split and create take intercommunicators too, runtime/comm/
// intercomm.hpp): the same ranks in the same order, a new context, the parent's topology,
// attributes (through their copy callbacks) and the hints `hints` names.
Status comm_dup(Comm& parent, DupHints hints, MPI_Comm* out);
// What a duplicate takes from `parent` once it exists: attributes and hints (as comm_dup says),
// and a stream communicator's stream (MPIX_Stream_comm_create).
// On failure the duplicate is freed again and *made becomes MPI_COMM_NULL.
Status finish_dup(MPI_Comm parent, DupHints hints, MPI_Comm* made);
// MPI_Comm_free's work: attribute delete callbacks, a buffer attached to it (once its messages
// are sent), hints and the error handler reference go, then the handle (the communicator itself
// lives on while collectives on it are running).
Status comm_free(MPI_Comm handle);
// MPI_Comm_split: ranks with the same color, ordered by (key, rank in parent); MPI_UNDEFINED
// gives MPI_COMM_NULL.
Status comm_split(Comm& parent, int color, int key, MPI_Comm* out);
// The members of `color` among `ranks` (world ranks), ordered by key then rank, from every rank's
// (color, key) pair in `color_key`; empty for MPI_UNDEFINED.
groups::Members split_members(const std::vector<int>& color_key, const groups::Members& ranks,
                              int color);
// MPI_Comm_create: collective over `parent`; the members of `group` (disjoint groups allowed
// across processes) get a communicator, the others MPI_COMM_NULL.
Status comm_create(Comm& parent, const groups::Members& group, MPI_Comm* out);
// MPI_Comm_create_group: collective over the members of `group` only; `tag` keeps concurrent
// calls on one parent apart.
Status comm_create_group(Comm& parent, const groups::Members& group, int tag, MPI_Comm* out);

// The context pair every member of `comm` has free, taken locally when `member` (collective
// over `comm`): agree_pairs (runtime/comm/intercomm.hpp) with allreduces over `comm`.
Status agree_context(Comm& comm, bool member, uint32_t* pair);
// The context pair the members of `group` (this process among them) agree on among themselves,
// collectively over a temporary communicator on `context` with the internal bit set whose
// collectives are numbered from `tag` (MPI_Comm_create_group, MPI_Comm_create_from_group).
Status agree_among(const groups::Members& group, uint32_t context, uint32_t tag, const char* name,
                   uint32_t* pair);
// Registers the communicator of `members` (this process among them) on context `pair`.
MPI_Comm register_comm(const groups::Members& members, uint32_t pair, CommOrigin origin);

// MPI_Comm_idup and MPI_Comm_idup_with_info (runtime/comm/idup.cpp): *out becomes a request
// that completes once the new communicator's handle is in *newcomm. Its hints are as comm_dup
// says; a given info object is read now (the caller may free it at once).
Status start_comm_idup(Comm& parent, DupHints hints, MPI_Comm* newcomm, Request** out);

// Collectives the library runs for itself (blocking, bytes only): every rank's `bytes` of
// `mine` into `all` in rank order; `root`'s `bytes` at `buf` to every rank's `buf`; a barrier.
Status internal_allgather(Comm& comm, const void* mine, size_t bytes, void* all);
Status internal_bcast(Comm& comm, void* buf, size_t bytes, int root);
Status internal_barrier(Comm& comm);
// The allreduce (in place) of `n` words with MPI_BAND on MPI_UINT64_T.
coll::CallSpec bitwise_and_call(uint64_t* words, size_t n);
int my_world_rank();

// Collectives among temporary communicators that share their parent's context (internal bit
// set): MPI_Comm_create_group numbers them from its tag, MPI_Comm_idup from its own sequence
// number with this bit set, so the two never meet.
inline constexpr uint32_t kIdupSeqBit = uint32_t{1} << 20;

}  // namespace weft
