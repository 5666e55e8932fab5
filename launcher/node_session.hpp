// One node's part of a job, for weftrun (its own machine's ranks) and weftd alike: the session
// directory (stale ones of dead launchers removed first), the node's PMIx server with the job
// registered, and its ranks; finish() ends what is left and removes the directory.
#pragma once
#include <string>

#include "launcher/job_spec.hpp"
#include "launcher/local_ranks.hpp"
#include "launcher/pmix_server.hpp"

namespace weft::launcher {

class NodeSession {
 public:
  ~NodeSession() { finish(); }
  // Starts node `node` of `spec`; the server's upcalls write a byte to `notify_fd`. Rank 0, if
  // here, gets a stdin pipe; `dynamic` takes MPI_Comm_spawn and name-service calls.
  // Returns "" or what failed (ranks already started keep running).
  std::string start(const JobSpec& spec, int node, int notify_fd, bool dynamic = false);
  // Kills the ranks' process group (any rank still running is reaped), stops the server and
  // removes the directory and the node's shared-memory segment (pt2pt/shm/segment.hpp).
  void finish();

  PmixServer& server() { return server_; }
  LocalRanks& ranks() { return ranks_; }

 private:
  std::string tmpdir_;
  std::string shm_segment_;
  PmixServer server_;
  LocalRanks ranks_;
};

}  // namespace weft::launcher
