// Communicators: rank, size, the world ranks behind them, context ids and error handler, and
// the table of live communicators. A freed communicator with collectives still in flight lives
// on (unreachable by its handle) until they finish; then its context ids are released.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi.h"
#include "runtime/comm/context_ids.hpp"
#include "runtime/status.hpp"

namespace weft {
namespace streams {
class StreamQueue;
}

struct Topology;  // runtime/topology/virtual.hpp
namespace coll {
struct NodeMap;  // coll/node_map.hpp
class CallCache;  // coll/call_cache.hpp
class NcclComm;   // coll/nccl_path.cpp
struct RegionHold;  // coll/node_region.hpp
}

// State a communicator keeps for itself, made on first use and dropped with it: its prepared
// collective calls (coll/call_cache.hpp), its NCCL communicator (coll/nccl_path.hpp) and its
// node region (coll/node_region.hpp). A copy
// of a communicator is another communicator: it starts without.
template <typename T>
struct CommOwned {
  std::shared_ptr<T> held;
  CommOwned() = default;
  CommOwned(const CommOwned&) {}
  CommOwned& operator=(const CommOwned&) {
    held.reset();
    return *this;
  }
};

struct Comm {
  MPI_Comm handle = MPI_COMM_NULL;
  std::string name;
  int rank = 0;
  int size = 0;
  std::vector<int> world_ranks;  // communicator rank -> world rank
  uint32_t context = 0;          // point-to-point context id; context + 1 carries collectives
  // Traffic carries the internal bit: the temporary communicators MPI_Comm_create_group agrees
  // on its context with, which share their parent's context id.
  bool internal = false;
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  // The session it derives from (made by MPI_Comm_create_from_group from a group of that
  // session, or from such a communicator); MPI_SESSION_NULL in the World model. Its buffered
  // sends use that session's buffer when it has none of its own (pt2pt/buffered.hpp).
  MPI_Session session = MPI_SESSION_NULL;
  uint32_t coll_seq = 0;  // collectives started so far; tags each one's messages
  int ops_in_flight = 0;  // collectives running on it (they keep a freed communicator alive)
  CommOwned<coll::CallCache> prepared_calls;
  CommOwned<coll::NcclComm> nccl;  // or why NCCL cannot be used on it
  // Its node region for collectives (coll/node_region.hpp): null until learnt.
  CommOwned<coll::RegionHold> region;
  // MPIX_Stream_comm_create: a stream communicator, its stream (MPIX_Comm_get_stream; kept
  // alive while the communicator lives, after an MPIX_Stream_free too; null for
  // MPIX_STREAM_NULL), and where that is a CUDA stream, the queue of its MPIX_*_enqueue calls
  // (runtime/streams/, shared with the MPIX_Stream).
  bool has_stream = false;
  std::shared_ptr<weft_stream> stream;
  std::shared_ptr<streams::StreamQueue> stream_queue;
  std::shared_ptr<const Topology> topology;  // MPI_Cart_create and friends; shared by its dups
  // Which node each rank runs on, for node-aware collectives (runtime/comm/nodes.hpp): learnt
  // at the first blocking collective, or from the parent at creation; null while not known,
  // and when every rank runs on one node.
  std::shared_ptr<const coll::NodeMap> nodes;
  bool nodes_known = false;
  // Intercommunicators (runtime/comm/intercomm.hpp): the remote group's world ranks (empty for
  // an intracommunicator), and the local group as an intracommunicator of its own context pair,
  // which carries the local phases of collectives. Ranks in messages name the remote group; a
  // message carries the sender's local rank, so both groups share one context pair.
  std::vector<int> remote_world_ranks;
  std::shared_ptr<Comm> local;

  uint32_t coll_context() const { return context + 1; }
  bool is_inter() const { return !remote_world_ranks.empty(); }
  int remote_size() const { return int(remote_world_ranks.size()); }
  // The world rank of the process that rank `r` names in messages (a remote one on an
  // intercommunicator).
  int peer_world_rank(int r) const {
    return (is_inter() ? remote_world_ranks : world_ranks)[size_t(r)];
  }
  // How many ranks messages can name: the remote group's size on an intercommunicator.
  int peer_count() const { return is_inter() ? remote_size() : size; }
  // How messages name it: its name, else "communicator <handle>".
  std::string display_name() const {
    return name.empty() ? "communicator " + std::to_string(handle) : name;
  }
};

// What a new communicator takes from where it comes from: the error handler, and the session.
struct CommOrigin {
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  MPI_Session session = MPI_SESSION_NULL;
};
// A communicator made from `parent` (dup, split, create, merge...) takes both from it.
inline CommOrigin origin_of(const Comm& parent) { return {parent.errhandler, parent.session}; }

class CommTable {
 public:
  void init_predefined(int world_rank, int world_size);
  void clear();
  // The communicator behind a handle, or nullptr if the handle is not a live communicator.
  Comm* find(MPI_Comm handle) {
    return (handle > 0 && size_t(handle) < comms_.size()) ? comms_[size_t(handle)].get() : nullptr;
  }
  // Registers a new communicator (its context pair already taken); returns its handle.
  MPI_Comm add(std::unique_ptr<Comm> comm);
  // MPI_Comm_free's part: the handle goes; the communicator too, or once its collectives end.
  void retire(MPI_Comm handle);
  // A collective on `comm` has ended: release a retired communicator nobody uses any more.
  void op_done(Comm* comm);

  ContextIds& context_ids() { return context_ids_; }

 private:
  void destroy(std::unique_ptr<Comm> comm);
  std::vector<std::unique_ptr<Comm>> comms_;    // by handle; null: a free slot
  std::vector<std::unique_ptr<Comm>> retired_;  // freed, collectives still running
  ContextIds context_ids_;
};

// The communicator for `handle` or MPI_ERR_COMM naming `arg` and the value.
[[gnu::cold]] Status invalid_comm(MPI_Comm handle, const char* arg);
inline Status lookup_comm(CommTable& table, MPI_Comm handle, const char* arg, Comm** out) {
  *out = table.find(handle);
  if (*out != nullptr) [[likely]] return Status::success();
  return invalid_comm(handle, arg);
}

}  // namespace weft
