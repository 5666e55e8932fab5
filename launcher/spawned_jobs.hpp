// The jobs MPI_Comm_spawn starts, on weftrun's own node: each a namespace of its own registered
// with the node's PMIx server, its ranks children of weftrun in a process group of their own.
// weftrun forwards their output, reaps them, and ends the whole job when one fails, as for its
// own ranks. A spawned rank is named "<nspace> rank <r>" in messages.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "launcher/io_forward.hpp"
#include "launcher/local_ranks.hpp"

namespace weft::launcher {

class SpawnedJobs {
 public:
  // What weftrun hears of a spawned rank's end: its name, pid and waitpid() status.
  using ExitFn = std::function<void(const std::string& who, pid_t pid, int wait_status)>;

  // Starts `request` as a job like `parent` on node `node`; *nspace names it. Returns "" or why
  // it could not (nothing of it is left running then).
  std::string start(const JobSpec& parent, int node, PmixServer* server,
                    const SpawnRequest& request, std::string* nspace);
  void watch(std::vector<pollfd>* fds) const;
  void handle(const std::vector<pollfd>& fds);
  void reap(const ExitFn& exited);
  void signal_all(int sig);
  void close_outputs();
  int running() const;
  bool output_open() const;

 private:
  struct Job {
    JobSpec spec;
    LocalRanks ranks;
    std::vector<std::unique_ptr<LineForwarder>> out, err;
  };
  std::vector<std::unique_ptr<Job>> jobs_;
};

}  // namespace weft::launcher
