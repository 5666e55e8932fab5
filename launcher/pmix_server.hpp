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

class PmixServer {
 public:
  ~PmixServer();
  // Starts the server with its files under `tmpdir`, as node `node_id` called `hostname`;
  // upcalls write a byte to `notify_fd`. Each returns an empty string on success, else what failed.
  std::string start(const std::string& tmpdir, int notify_fd, const std::string& hostname,
                    int node_id);
  // Registers the job and this node's ranks.
  std::string register_job(const JobSpec& job, int node);
  // Adds the PMIx variables rank `rank` needs to `env` ("NAME=value" strings).
  std::string add_client_env(int rank, std::vector<std::string>* env);
  std::vector<AbortEvent> take_aborts();
  std::vector<PendingFence> take_fences();
  // Completes a pending fence with every node's blobs concatenated (in any order).
  void complete_fence(void* handle, const std::string& all_blobs);
  void stop();

 private:
  std::string nspace_;
  bool started_ = false;
};

}  // namespace weft::launcher
