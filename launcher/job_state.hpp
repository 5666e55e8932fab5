// The job weftrun runs (launcher/job.cpp): its ranks on this machine and other hosts, the
// fences it gathers, and the dynamic-process calls it serves (launcher/job_dynamic.cpp).
#pragma once
#include <sys/types.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "launcher/dynamic_calls.hpp"
#include "launcher/hang_report.hpp"
#include "launcher/io_forward.hpp"
#include "launcher/job.hpp"
#include "launcher/job_plan.hpp"
#include "launcher/name_directory.hpp"
#include "launcher/node_session.hpp"
#include "launcher/remote_nodes.hpp"
#include "launcher/spawned_jobs.hpp"

namespace weft::launcher {

struct RankState {
  pid_t pid = -1;
  bool ended = false;
  std::unique_ptr<LineForwarder> out, err;
};

class Job final : public RemoteNodes::Events {
 public:
  explicit Job(const LaunchOptions& o) : options_(o) {}
  int run();

  void rank_started(int rank, pid_t pid) override {
    if (valid(rank)) ranks_[size_t(rank)].pid = pid;
  }
  void rank_output(int rank, int stream, const std::string& bytes) override {
    if (valid(rank)) forward(rank, stream, bytes.data(), bytes.size());
  }
  void rank_exited(int rank, int wait_status) override {
    if (valid(rank)) rank_ended(rank, wait_status);
  }
  void rank_aborted(int rank, int code, const std::string& message) override;
  void fence_arrived(int node, uint32_t fence, const std::string& blob) override;
  void node_failed(int node, const std::string& why) override;
  void spawn_called(int node, uint32_t id, const SpawnRequest& request) override;
  void name_called(int node, uint32_t id, const NameRequest& request) override;

 private:
  std::string plan();
  std::string start();
  void loop();
  void end_job(const std::string& why, int code);
  void rank_ended(int rank, int wait_status);
  // The ranks of `node` will never report: counted as ended.
  void mark_node_ended(int node);
  void forward(int rank, int stream, const char* data, size_t len);
  void handle_wakeup();
  void serve_dynamic();
  // Starts a spawn's children on this node; *nspace names them. "" or why not (said on stderr).
  std::string start_spawn(const SpawnRequest& request, std::string* nspace);
  // Answers a name request of this node's ranks (PMIx) or of another node's (over the wire).
  void answer_names(const NameDirectory::Answer& a);
  void request_state(bool then_end);
  void print_state();
  bool valid(int rank) const { return rank >= 0 && size_t(rank) < ranks_.size(); }
  std::string where(int rank) const {
    return spec_.nodes.size() > 1 ? " on " + spec_.nodes[size_t(spec_.node_of_rank[size_t(rank)])]
                                  : std::string();
  }
  int running_count() const { return int(ranks_.size()) - ended_ + spawned_.running(); }

  const LaunchOptions& options_;
  JobSpec spec_;
  int local_node_ = -1;  // the node that is this machine, if any
  NodeSession node_;  // this machine's ranks, when it has some
  PmixServer& server_ = node_.server();
  LocalRanks& local_ = node_.ranks();
  RemoteNodes remote_;
  // MPI_Comm_spawn's jobs and the published names (weftrun's node only).
  SpawnedJobs spawned_;
  NameDirectory names_;
  // Name requests of other nodes' ranks, by the handle the directory knows them by: node and the
  // daemon's id for the call.
  std::map<const void*, std::unique_ptr<std::pair<int, uint32_t>>> remote_names_;
  std::vector<RankState> ranks_;
  int ended_ = 0;
  // Fences gathering every node's blob: by number, the blobs so far and this node's pending one.
  struct Gather {
    std::string all;
    size_t nodes = 0;
    void* local = nullptr;
  };
  std::map<uint32_t, Gather> fences_;
  uint32_t local_fences_ = 0;
  int wake_[2] = {-1, -1};
  std::optional<int> exit_code_;  // set once the job is ending
  double kill_at_ = 0;             // when SIGKILL follows SIGTERM
  double give_up_at_ = 0;          // when an ending job stops waiting for other nodes
  bool killed_ = false;
  bool stdin_open_ = true;
  // The hang report asked of the ranks: its answers so far, when it is printed, and whether
  // the job ends after it (--timeout) or goes on (SIGUSR1).
  StateReport report_;
  double report_due_ = 0;
  bool report_ends_job_ = false;
};

}  // namespace weft::launcher
