// The job's event loop. Policy: the first failing rank (non-zero exit or signal), MPI_Abort (also
// used by libweft for a rank that exits 0 without MPI_Finalize), a lost node, SIGINT/SIGTERM/SIGHUP
// or --timeout ends the job: one line says why, every rank gets SIGTERM (SIGKILL 0.5 s later),
// every rank is reaped and its output drained, the PMIx files are removed, and that cause's code
// is returned. Ranks on this machine are weftrun's children; those on other hosts are weftd's.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "launcher/exit_report.hpp"
#include "launcher/job_state.hpp"
#include "launcher/wakeup.hpp"

namespace weft::launcher {
namespace {

constexpr double kKillGraceS = 0.5;    // SIGTERM, then SIGKILL after this long
constexpr double kDrainS = 1.0;        // output still open this long after all ranks ended is dropped
constexpr double kNodeReportS = 5.0;   // how long an ending job waits for other nodes' reports

}  // namespace

// The JobSpec, and a line forwarder for each rank's output.
std::string Job::plan() {
  if (std::string e = plan_job(options_, &spec_); !e.empty()) return e;
  local_node_ = spec_.launcher_node;
  ranks_.resize(size_t(spec_.nranks()));
  for (size_t r = 0; r < ranks_.size(); ++r) {
    const std::string prefix = options_.tag_output ? "[" + std::to_string(r) + "] " : "";
    ranks_[r].out = std::make_unique<LineForwarder>(STDOUT_FILENO, prefix);
    ranks_[r].err = std::make_unique<LineForwarder>(STDERR_FILENO, prefix);
    ranks_[r].err->take_lines([this](std::string_view line) { return report_.take(line); });
  }
  return {};
}

std::string Job::start() {
  if (std::string e = plan(); !e.empty()) return e;
  if (std::string e = open_wakeup(wake_, {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGUSR1}); !e.empty()) return e;

  if (spec_.nodes.size() > 1 || local_node_ < 0) {
    if (std::string e = remote_.start(spec_, options_.launcher_address); !e.empty()) return e;
  }
  if (local_node_ < 0) return {};
  std::string e = node_.start(spec_, local_node_, wake_[1], true);
  for (int r : spec_.ranks_on(local_node_)) ranks_[size_t(r)].pid = local_.pid_of(r);
  return e;
}

void Job::end_job(const std::string& why, int code) {
  if (exit_code_) return;
  exit_code_ = code;
  std::fprintf(stderr, "weftrun: %s\n", why.c_str());
  std::fflush(stderr);
  local_.signal_all(SIGTERM);
  spawned_.signal_all(SIGTERM);
  remote_.signal_ranks(SIGTERM);
  for (int node : remote_.stop_accepting()) mark_node_ended(node);
  kill_at_ = now_s() + kKillGraceS;
  give_up_at_ = now_s() + kNodeReportS;
}

void Job::rank_ended(int rank, int wait_status) {
  RankState& r = ranks_[size_t(rank)];
  if (r.ended) return;
  r.ended = true;
  ++ended_;
  if (exit_code_) return;  // already ending: this is our own kill
  if (is_failure(wait_status))
    end_job(describe_rank_end(rank, r.pid, wait_status) + where(rank) + "; ending the job",
            exit_code_for(wait_status));
}

void Job::rank_aborted(int rank, int code, const std::string& message) {
  if (!valid(rank)) return;
  end_job("rank " + std::to_string(rank) + " (pid " + std::to_string(ranks_[size_t(rank)].pid) +
              ")" + where(rank) + " aborted the job with code " + std::to_string(code) + ": " +
              message,
          code);
}

void Job::fence_arrived(int node, uint32_t fence, const std::string& blob) {
  (void)node;
  Gather& g = fences_[fence];
  g.all += blob;
  if (++g.nodes < spec_.nodes.size()) return;
  if (g.local != nullptr) server_.complete_fence(g.local, g.all);
  remote_.send_fence(fence, g.all);
  fences_.erase(fence);
}

void Job::mark_node_ended(int node) {
  for (size_t r = 0; r < ranks_.size(); ++r) {
    if (spec_.node_of_rank[r] != node || ranks_[r].ended) continue;
    ranks_[r].ended = true;
    ++ended_;
  }
}

void Job::node_failed(int node, const std::string& why) {
  mark_node_ended(node);
  end_job(why + "; ending the job", 1);
}

void Job::forward(int rank, int stream, const char* data, size_t len) {
  LineForwarder& fwd = stream == 2 ? *ranks_[size_t(rank)].err : *ranks_[size_t(rank)].out;
  if (len > 0) fwd.feed(data, len);
  else fwd.flush();
}

void Job::handle_wakeup() {
  char bytes[64];
  ssize_t n;
  while ((n = read(wake_[0], bytes, sizeof bytes)) > 0) {
    for (ssize_t i = 0; i < n; ++i) {
      const int sig = bytes[i];
      if (sig == SIGUSR1 && !exit_code_) request_state(false);
      if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
        local_.signal_all(sig);
        remote_.signal_ranks(sig);
        end_job("received " + signal_name(sig) + "; ending the job (" +
                    std::to_string(running_count()) + " ranks running)",
                128 + sig);
      }
    }
  }
  for (const AbortEvent& e : server_.take_aborts()) rank_aborted(e.rank, e.code, e.message);
  for (const PendingFence& f : server_.take_fences()) {
    fences_[local_fences_].local = f.handle;
    fence_arrived(local_node_, local_fences_++, f.blob);
  }
  local_.reap([this](int rank, pid_t, int status) { rank_ended(rank, status); });
  spawned_.reap([this](const std::string& who, pid_t pid, int status) {
    if (exit_code_ || !is_failure(status)) return;
    end_job("spawned " + who + " (pid " + std::to_string(pid) + ") " + describe_status(status) +
                "; ending the job",
            exit_code_for(status));
  });
  serve_dynamic();
}

void Job::request_state(bool then_end) {
  if (report_due_ > 0) return;  // one at a time
  report_.clear();
  local_.signal_all(state_signal());
  remote_.signal_ranks(state_signal());
  report_due_ = now_s() + 1.0;
  report_ends_job_ = then_end;
}

void Job::print_state() {
  std::vector<std::string> host_of_rank;
  if (spec_.nodes.size() > 1)
    for (int n : spec_.node_of_rank) host_of_rank.push_back(spec_.nodes[size_t(n)]);
  for (const std::string& line : report_.summary(spec_.nranks(), host_of_rank))
    std::fprintf(stderr, "weftrun: %s\n", line.c_str());
  std::fflush(stderr);
  report_due_ = 0;
}

void Job::loop() {
  const double deadline = options_.timeout_s > 0 ? now_s() + options_.timeout_s : 0;
  double drain_until = 0;
  const auto output = [this](int rank, int stream, const char* data, size_t len) {
    forward(rank, stream, data, len);
  };
  for (;;) {
    const double now = now_s();
    if (running_count() == 0 && !local_.output_open() && !spawned_.output_open() &&
        remote_.all_done())
      break;
    if (running_count() == 0) {
      if (drain_until == 0) drain_until = now + kDrainS;
      if (now >= drain_until && remote_.all_done()) break;
    }
    if (exit_code_ && now >= give_up_at_) break;  // other nodes did not report in time
    // A job past its time first reports what each rank is blocked in, then ends.
    if (deadline > 0 && now >= deadline && !exit_code_ && report_due_ == 0) request_state(true);
    if (report_due_ > 0 &&
        (now >= report_due_ || report_.answers() >= size_t(running_count()))) {
      const bool end = report_ends_job_;
      print_state();
      if (end && !exit_code_) {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", options_.timeout_s);
        end_job(std::string("job timed out after ") + secs + " s; killing " +
                    std::to_string(running_count()) + " ranks",
                124);
      }
    }
    if (exit_code_ && !killed_ && now >= kill_at_) {
      local_.signal_all(SIGKILL);
      spawned_.signal_all(SIGKILL);
      remote_.signal_ranks(SIGKILL);
      killed_ = true;
    }

    std::vector<pollfd> fds{{wake_[0], POLLIN, 0}};
    // weftrun's stdin goes to rank 0, here or through its node's weftd, a piece at a time.
    const bool rank0_here = spec_.node_of_rank[0] == local_node_;
    const bool read_stdin =
        stdin_open_ && (rank0_here ? local_.stdin_open() && !local_.stdin_backlog()
                                   : remote_.stdin_room());
    if (read_stdin) fds.push_back({STDIN_FILENO, POLLIN, 0});
    local_.watch(&fds);
    spawned_.watch(&fds);
    remote_.watch(&fds);

    double wait_s = 0.25;
    if (deadline > 0 && !exit_code_) wait_s = std::min(wait_s, deadline - now);
    if (report_due_ > 0) wait_s = std::min(wait_s, 0.05);
    if (exit_code_ && !killed_) wait_s = std::min(wait_s, kill_at_ - now);
    if (drain_until > 0) wait_s = std::min(wait_s, drain_until - now);
    const int timeout_ms = wait_s > 0 ? int(wait_s * 1000) + 1 : 0;
    if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) break;

    for (const pollfd& p : fds) {
      if (p.fd != STDIN_FILENO || !read_stdin || p.revents == 0) continue;
      char buf[65536];
      const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) stdin_open_ = false;
      if (rank0_here) {
        if (n > 0) local_.give_stdin(buf, size_t(n));
        else local_.end_stdin();
      } else {
        remote_.send_stdin(std::string(buf, n > 0 ? size_t(n) : 0));
      }
    }
    local_.handle(fds, output);
    spawned_.handle(fds);
    remote_.handle(this);
    handle_wakeup();
  }
  // Output that stayed open past the drain (a rank's own children holding it) is dropped.
  local_.close_outputs(output);
  spawned_.close_outputs();
  for (RankState& r : ranks_) {
    r.out->flush();
    r.err->flush();
  }
}

int Job::run() {
  std::string error = start();
  if (!error.empty()) {
    if (local_.empty() && remote_.empty()) {
      std::fprintf(stderr, "weftrun: %s\n", error.c_str());
      exit_code_ = 1;
    } else {
      end_job(error + "; ending the job", 1);
    }
  }
  if (!exit_code_ || !local_.empty() || !remote_.empty()) loop();
  remote_.shutdown(5.0);
  node_.finish();  // kills only what a start failure or a give-up left running
  return exit_code_.value_or(0);
}

int run_job(const LaunchOptions& options) {
  Job job(options);
  return job.run();
}

}  // namespace weft::launcher
