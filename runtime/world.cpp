// Init and finalize of the process-wide state.
#include "runtime/world.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "coll/configure.hpp"
#include "gpu/memory.hpp"
#include "runtime/async_progress.hpp"
#include "runtime/config.hpp"
#include "runtime/transport_setup.hpp"
#include "runtime/wait_state.hpp"

namespace weft {

World g_world;

namespace {
constexpr const char* kAddressKey = "weft.ucx.addr";

// A rank that returns 0 from main (or calls exit(0)) after MPI_Init but without MPI_Finalize
// would leave its peers waiting forever: end the job and say why. Non-zero exits are reported
// by the launcher with their code. (on_exit, unlike atexit, sees the exit status.)
void check_finalized_at_exit(int status, void*) {
  World& w = world();
  if (w.phase != Phase::kRunning || status != 0) return;
  const std::string message = "rank " + std::to_string(w.kvs->job().rank) +
                              " exited with status 0 without calling " +
                              (w.world_model_initialized ? "MPI_Finalize" : "MPI_Session_finalize");
  std::fprintf(stderr, "weft: %s\n", message.c_str());
  w.kvs->abort(1, message);
}

bool oversubscribed(const JobInfo& job) { return job.local_size > sysconf(_SC_NPROCESSORS_ONLN); }
}  // namespace

Status world_init(int required, int* provided) {
  World& w = world();
  w.thread_level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : required;
  if (w.thread_level > MPI_THREAD_MULTIPLE) w.thread_level = MPI_THREAD_MULTIPLE;
  *provided = w.thread_level;
  w.main_thread = std::this_thread::get_id();

  WEFT_TRY(make_kvs(&w.kvs));
  const JobInfo& job = w.kvs->job();
  w.requested_thread_level = required;
  w.job_size = job.size;
  // Before the transports, which ask whether device memory can exist (a dlopen, no cuInit).
  gpu::find_device_memory(setting_value("WEFT_CUDA") != "0");
  std::unique_ptr<Transport> net;
  WEFT_TRY(start_transports(job, oversubscribed(job), &net));
  WEFT_TRY(w.kvs->put(kAddressKey, net->address()));
  WEFT_TRY(w.kvs->commit());
  WEFT_TRY(w.kvs->fence(nullptr));
  WEFT_TRY(finish_transports(job, oversubscribed(job), std::move(net), &w.transport,
                             &w.node_transport));

  w.progress.configure(w.transport.get(), &w.requests, setting_long("WEFT_SPIN_US", 1000),
                       setting_long("WEFT_YIELD", oversubscribed(job)) != 0,
                       int(setting_long("WEFT_POLL_MS", 100)));
  std::vector<std::string> problems;
  coll::configure_selector(&w.selector, oversubscribed(job), &problems);
  w.check_collectives = setting_long("WEFT_CHECK_COLLECTIVES", 0) != 0;
  for (const std::string& p : problems)
    if (job.rank == 0) std::fprintf(stderr, "weft: warning: %s\n", p.c_str());
  w.comms.init_predefined(job.rank, job.size);
  w.groups.init_predefined();
  // From here on every call takes the call lock (runtime/call_lock.hpp).
  if (w.thread_level == MPI_THREAD_MULTIPLE) call_lock::need(call_lock::kMultiple);
  w.phase = Phase::kRunning;
  wait_state::install_from_environment();
  on_exit(check_finalized_at_exit, nullptr);
  return Status::success();
}

Status process_address(int id, std::vector<uint8_t>* address) {
  World& w = world();
  const int size = w.kvs->job().size;
  if (id >= size) {
    *address = w.foreign[size_t(id - size)].address;
    return Status::success();
  }
  if (id == w.kvs->job().rank) {
    *address = w.transport->address();
    return Status::success();
  }
  return w.kvs->get(id, kAddressKey, *address);
}

Status connect_peer(int world_rank) {
  std::vector<uint8_t> address;
  WEFT_TRY(process_address(world_rank, &address));
  return world().transport->connect(world_rank, address);
}

int process_id(const std::string& nspace, int rank, const std::vector<uint8_t>& address) {
  World& w = world();
  if (nspace == w.kvs->job().nspace) return rank;
  for (size_t i = 0; i < w.foreign.size(); ++i)
    if (w.foreign[i].nspace == nspace && w.foreign[i].rank == rank) return w.kvs->job().size + int(i);
  w.foreign.push_back({nspace, rank, address});
  w.transport->expect_other_namespaces();
  return w.kvs->job().size + int(w.foreign.size()) - 1;
}

std::pair<std::string, int> process_name(int id) {
  World& w = world();
  const int size = w.kvs->job().size;
  if (id < size) return {w.kvs->job().nspace, id};
  const ForeignProcess& p = w.foreign[size_t(id - size)];
  return {p.nspace, p.rank};
}

Status world_acquire(int required, int* provided) {
  World& w = world();
  if (w.phase == Phase::kFinalized) {
    return Status::error(MPI_ERR_OTHER,
                         "the library was finalized when its last user (MPI_Finalize or "
                         "MPI_Session_finalize) was gone, and Weft cannot start it again");
  }
  if (w.phase == Phase::kBeforeInit) WEFT_TRY(world_init(required, provided));
  *provided = w.thread_level;
  ++w.users;
  return Status::success();
}

Status world_release() {
  World& w = world();
  if (--w.users > 0) return Status::success();
  return world_finalize();
}

Status world_finalize() {
  World& w = world();
  async_progress_shutdown();
  // Every started send reaches its peer before anyone tears down its endpoints.
  Status flushed = w.transport->flush();
  Status fenced = w.kvs->fence([&] { w.progress.poll(); });
  w.comms.clear();
  w.groups.clear();
  w.foreign.clear();
  w.parent = MPI_COMM_NULL;
  w.node_transport = nullptr;
  w.transport.reset();
  Status done = w.kvs->finalize();
  w.kvs.reset();
  w.phase = Phase::kFinalized;
  WEFT_TRY(flushed);
  WEFT_TRY(fenced);
  return done;
}

}  // namespace weft
