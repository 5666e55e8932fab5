// The PMIx server of one node of a job (embedded in weftrun, and in each weftd): registers the
// job with every rank's node and app, gives each local rank its PMIx environment, and turns the
// PMIx_Abort and cross-node fence upcalls into events for the launcher's loop.
// Threading: PMIx calls the upcalls on its own progress thread; they only queue an event and
// write one byte to the notify fd. Everything else runs on the launcher's main thread.
#pragma once
#include <string>
#include <vector>

#include "launcher/job_spec.hpp"

namespace weft::launcher {

struct AbortEvent {
  int rank = -1;
  int code = 1;
  std::string message;
};

// A fence whose participants are not all on this node: this node's data, to be gathered with
// every other node's and handed back through complete_fence.
struct PendingFence {
  std::string blob;
  void* handle = nullptr;
};

// MPI_Comm_spawn's request: start `apps` as a new namespace (launcher/spawned_jobs.*); answered
// with complete_spawn.
struct SpawnRequest {
  std::string parent;  // "<nspace> rank <r>" of the caller
  struct App {
    AppContext context;  // argv, wdir, env, nranks (maxprocs)
    std::string host;    // PMIX_HOST, "" if not given
  };
  std::vector<App> apps;
  void* handle = nullptr;
};

// A name-service call (publish, lookup, unpublish); answered with complete_names.
struct NameRequest {
  enum Kind { kPublish, kLookup, kUnpublish } kind = kPublish;
  std::vector<std::pair<std::string, std::string>> entries;  // publish: key, value; else keys
  bool wait = false;  // lookup: until every key is published
  void* handle = nullptr;
};
// How a name request ended.
enum class NameOutcome { kOk, kNotFound, kDuplicate };

// Ends the process with `code`: by _exit when a server's finalize was left hanging (exit's own
// handlers could wait on the same PMIx lock), else by exit.
[[noreturn]] void exit_after_server(int code);

class PmixServer {
 public:
  ~PmixServer();
  // Starts the server with its files under `tmpdir`, as node `node_id` called `hostname`;
  // upcalls write a byte to `notify_fd`. Each returns an empty string on success, else what failed.
  // `dynamic`: take spawn and name-service calls (weftrun serves them; weftd forwards them to
  // weftrun, launcher/dynamic_calls.hpp).
  std::string start(const std::string& tmpdir, int notify_fd, const std::string& hostname,
                    int node_id, bool dynamic = false);
  // Registers the job (or a spawned one) and this node's ranks; `universe` is MPI_UNIVERSE_SIZE.
  std::string register_job(const JobSpec& job, int node, int universe);
  // Adds the PMIx variables rank `rank` of `nspace` needs to `env` ("NAME=value" strings).
  std::string add_client_env(const std::string& nspace, int rank, std::vector<std::string>* env);
  std::vector<SpawnRequest> take_spawns();
  // Answers a spawn: `nspace` on success, else `error` (already reported by the launcher).
  void complete_spawn(void* handle, const std::string& nspace, bool ok);
  std::vector<NameRequest> take_names();
  // Answers a name request; a lookup's values come in `found` (key, value).
  void complete_names(void* handle, NameOutcome outcome,
                      const std::vector<std::pair<std::string, std::string>>& found = {});
  std::vector<AbortEvent> take_aborts();
  std::vector<PendingFence> take_fences();
  // Completes a pending fence with every node's blobs concatenated (in any order).
  void complete_fence(void* handle, const std::string& all_blobs);
  // PMIx_server_finalize, waited for at most 2 s: PMIx 4.2.2 can deadlock in it (a rank killed
  // while it connected); then it is left on a thread of its own and the process must end with
  // exit_after_server (below) rather than return from main.
  void stop();

 private:
  bool started_ = false;
};

}  // namespace weft::launcher
