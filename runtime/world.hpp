// Process-wide state and its init/finalize order: Kvs, then Transport (address published and
// fenced), then communicators; finalize reverses it after flushing all traffic.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "coll/select.hpp"
#include "pt2pt/transport.hpp"
#include "runtime/comm/comm.hpp"
#include "runtime/comm/group.hpp"
#include "runtime/kvs.hpp"
#include "runtime/op/op.hpp"
#include "runtime/progress.hpp"
#include "runtime/request.hpp"

namespace weft {
namespace shm {
class ShmTransport;  // pt2pt/shm/shm_transport.hpp
}

// The library's state: running from the first MPI_Init or MPI_Session_init until the last of
// them is finalized (MPI_Finalize, MPI_Session_finalize).
enum class Phase { kBeforeInit, kRunning, kFinalized };

// A process of another namespace (a spawned job, a group met through MPI_Comm_connect): known by
// an id after this job's ranks, used wherever a world rank is (transport peers, communicators).
struct ForeignProcess {
  std::string nspace;
  int rank = 0;
  std::vector<uint8_t> address;
};

struct World {
  Phase phase = Phase::kBeforeInit;
  // Users of the running library: MPI_Init's world model and each live session.
  int users = 0;
  // The world model alone (MPI_Initialized, MPI_Finalized), whatever sessions do.
  bool world_model_initialized = false;
  bool world_model_finalized = false;
  int thread_level = MPI_THREAD_SINGLE;
  // What MPI_Init_thread was asked for (MPI_Init: MPI_THREAD_SINGLE) and the job's size, kept
  // after MPI_Finalize for MPI_Info_create_env; -1 and 0 before MPI_Init.
  int requested_thread_level = -1;
  int job_size = 0;
  std::thread::id main_thread;
  std::unique_ptr<Kvs> kvs;
  std::unique_ptr<Transport> transport;
  // The node's shared-memory transport, part of `transport`, where this rank has one (its
  // segment also holds the communicators' node regions: coll/node_region.hpp).
  shm::ShmTransport* node_transport = nullptr;
  RequestPool requests;
  Progress progress;
  CommTable comms;
  GroupTable groups;
  OpTable ops;
  coll::Selector selector;
  bool check_collectives = false;  // WEFT_CHECK_COLLECTIVES (coll/mismatch_check.hpp)
  std::vector<ForeignProcess> foreign;  // id job size + i
  MPI_Comm parent = MPI_COMM_NULL;      // MPI_Comm_get_parent
  std::map<std::string, int> port_accepts;  // MPI_Comm_accept calls so far, by port
};

extern World g_world;
inline World& world() { return g_world; }

// MPI_Init_thread's work; `provided` gets the level actually supported.
Status world_init(int required, int* provided);
Status world_finalize();
// One more user (MPI_Init or MPI_Session_init): the first initialises the library (a fence with
// every process of the job), later ones get the level it runs at. After the last user is gone
// the library cannot start again (PMIx and UCX are not re-initialised): an error says so.
Status world_acquire(int required, int* provided);
// One user fewer: the last one finalizes the library.
Status world_release();
// Creates the transport connection to `world_rank` from its published address.
Status connect_peer(int world_rank);
// The id of process `rank` of namespace `nspace` (its rank in this job's own namespace; else a
// foreign id, made on first sight with `address`), and the other way round.
int process_id(const std::string& nspace, int rank, const std::vector<uint8_t>& address);
std::pair<std::string, int> process_name(int id);
// The transport address of process `id`.
Status process_address(int id, std::vector<uint8_t>* address);

}  // namespace weft
