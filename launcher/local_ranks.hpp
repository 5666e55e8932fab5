// The ranks of one node as child processes of its launcher (weftrun for its own node, weftd on
// the others): started with their environment and PMIx variables, their output read as it
// comes, their ends reaped, and signals sent to their process group.
#pragma once
#include <poll.h>
#include <sys/types.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "launcher/job_spec.hpp"
#include "launcher/pmix_server.hpp"
#include "launcher/spawn.hpp"

namespace weft::launcher {

class LocalRanks {
 public:
  // stream 1 is stdout, 2 stderr; `len` 0 means that stream has ended.
  using OutputFn = std::function<void(int rank, int stream, const char* data, size_t len)>;
  using ExitFn = std::function<void(int rank, pid_t pid, int wait_status)>;

  using LogFn = std::function<void(const std::string& line)>;

  ~LocalRanks();
  // Where start() sends its --report-bindings lines (default: weftrun's stderr, "weftrun: "
  // before each; weftd sends them to weftrun).
  void set_log(LogFn log) { log_ = std::move(log); }
  // Starts the ranks `spec` places on `node`; rank 0, if here and `stdin_to_rank0`, gets a stdin
  // pipe. Returns "" or what failed (ranks already started keep running: see signal_all).
  std::string start(const JobSpec& spec, int node, PmixServer* server, bool stdin_to_rank0);
  // Adds the output fds to poll; handle() reads those that are ready.
  void watch(std::vector<pollfd>* fds) const;
  void handle(const std::vector<pollfd>& fds, const OutputFn& output);
  // Reaps ended ranks, reporting each once.
  void reap(const ExitFn& exited);
  void signal_all(int sig);
  // Closes what is still open (output held by a rank's own children after the drain).
  void close_outputs(const OutputFn& output);

  int running() const;
  bool output_open() const;
  bool empty() const { return ranks_.empty(); }
  pid_t pid_of(int rank) const;

  // Rank 0's stdin, when it runs here with a pipe: bytes to pass on (written as the pipe takes
  // them, from handle()), and the end of the input (the pipe is closed once all is written).
  bool stdin_open() const;
  bool stdin_backlog() const { return !stdin_pending_.empty(); }
  void give_stdin(const char* data, size_t len);
  void end_stdin();

 private:
  void pump_stdin();
  int* stdin_fd();
  struct Rank {
    int rank = -1;
    RankProcess proc;
    bool running = true;
  };
  std::vector<Rank> ranks_;
  pid_t pgid_ = 0;
  std::string stdin_pending_;
  bool stdin_ended_ = false;
  LogFn log_ = [](const std::string& line) { std::fprintf(stderr, "weftrun: %s\n", line.c_str()); };
};

}  // namespace weft::launcher
