// The job's event loop. Policy: the first failing rank (non-zero exit or signal), MPI_Abort (also
// used by libweft for a rank that exits 0 without MPI_Finalize), SIGINT/SIGTERM/SIGHUP or --timeout ends the job: one
// line says why, the ranks' process group gets SIGTERM (SIGKILL 0.5 s later), every rank is
// reaped and its output drained, the PMIx files are removed, and that cause's code is returned.
#include "launcher/job.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "launcher/exit_report.hpp"
#include "launcher/io_forward.hpp"
#include "launcher/pmix_server.hpp"
#include "launcher/rank_env.hpp"
#include "launcher/session_dir.hpp"
#include "launcher/binding.hpp"
#include "launcher/spawn.hpp"

extern char** environ;

namespace weft::launcher {
namespace {

constexpr double kKillGraceS = 0.5;  // SIGTERM, then SIGKILL after this long
constexpr double kDrainS = 1.0;      // output still open this long after all ranks ended is dropped

int g_wake_fd = -1;  // write end of the self-pipe, for the signal handler

void on_signal(int sig) {
  const char byte = char(sig);
  const int saved = errno;
  (void)!write(g_wake_fd, &byte, 1);
  errno = saved;
}

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Rank {
  RankProcess proc;
  std::unique_ptr<LineForwarder> out, err;
  bool running = true;
};

class Job {
 public:
  explicit Job(const LaunchOptions& o) : options_(o) {}
  int run();

 private:
  std::string start();
  void loop();
  void end_job(const std::string& why, int code);
  void handle_wakeup();
  void reap();
  void pump_stdin();
  void close_fd(int* fd) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  bool output_open() const {
    for (const Rank& r : ranks_)
      if (r.proc.out_fd >= 0 || r.proc.err_fd >= 0) return true;
    return false;
  }
  int running_count() const {
    int n = 0;
    for (const Rank& r : ranks_) n += r.running;
    return n;
  }

  const LaunchOptions& options_;
  PmixServer server_;
  std::string tmpdir_;
  int wake_[2] = {-1, -1};
  pid_t pgid_ = 0;
  std::vector<Rank> ranks_;
  std::optional<int> exit_code_;  // set once the job is ending
  double kill_at_ = 0;             // when SIGKILL follows SIGTERM
  bool killed_ = false;
  std::string stdin_pending_;
  bool stdin_open_ = true;
};

std::string Job::start() {
  // Each app context's argv with its program found, and its working directory, checked now so
  // that a mistake is one clear line before any rank starts.
  std::vector<std::vector<std::string>> argvs;
  std::vector<std::string> wdirs;
  for (const AppContext& app : options_.apps) {
    std::string error;
    argvs.push_back(app.argv);
    argvs.back()[0] = resolve_program(app.argv[0], &error);
    if (argvs.back()[0].empty()) return error;
    wdirs.push_back(app.wdir.empty() ? options_.wdir : app.wdir);
    std::error_code ec;
    if (!wdirs.back().empty() && !std::filesystem::is_directory(wdirs.back(), ec))
      return "cannot use '" + wdirs.back() + "' as the working directory of " + app.argv[0] +
             ": " + (ec ? ec.message() : "not a directory");
  }

  // Launchers killed with SIGKILL could not remove their session directories: do it for them.
  remove_stale_session_dirs(temp_base());
  if (std::string e = create_session_dir(temp_base(), &tmpdir_); !e.empty()) return e;

  if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) return std::string("pipe: ") + std::strerror(errno);
  g_wake_fd = wake_[1];
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);

  if (std::string e = server_.start(tmpdir_, wake_[1]); !e.empty()) return e;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  JobLayout layout{"weft." + std::to_string(getpid()), host, options_.nranks, {}};
  for (const AppContext& app : options_.apps) layout.app_sizes.push_back(app.nranks);
  if (std::string e = server_.register_job(layout); !e.empty()) return e;

  const EnvMap common = job_environment(parse_environ(environ), options_);
  ranks_.resize(size_t(options_.nranks));
  const std::vector<int> cpus = plan_binding(options_.binding, options_.nranks, allowed_cpus());
  size_t app = 0;
  for (int r = 0, app_end = options_.apps[0].nranks; r < options_.nranks; ++r) {
    if (r == app_end) app_end += options_.apps[++app].nranks;
    EnvMap env = common;
    for (const auto& [name, value] : options_.apps[app].env) env[name] = value;
    add_rank_identity(&env, r, options_.nranks);
    std::vector<std::string> env_strings = to_strings(env);
    if (std::string e = server_.add_client_env(r, &env_strings); !e.empty()) return e;
    Rank& rank = ranks_[size_t(r)];
    const int cpu = cpus[size_t(r)];
    if (std::string e = spawn_rank(argvs[app], env_strings, wdirs[app], pgid_, r == 0, cpu,
                                   &rank.proc);
        !e.empty())
      return e;
    if (r == 0) pgid_ = rank.proc.pid;
    const std::string prefix = options_.tag_output ? "[" + std::to_string(r) + "] " : "";
    rank.out = std::make_unique<LineForwarder>(STDOUT_FILENO, prefix);
    rank.err = std::make_unique<LineForwarder>(STDERR_FILENO, prefix);
  }
  return {};
}

void Job::end_job(const std::string& why, int code) {
  if (exit_code_) return;
  exit_code_ = code;
  std::fprintf(stderr, "weftrun: %s\n", why.c_str());
  std::fflush(stderr);
  if (pgid_ > 0) killpg(pgid_, SIGTERM);
  kill_at_ = now_s() + kKillGraceS;
}

void Job::reap() {
  for (size_t r = 0; r < ranks_.size(); ++r) {
    Rank& rank = ranks_[r];
    if (!rank.running) continue;
    int status = 0;
    if (waitpid(rank.proc.pid, &status, WNOHANG) != rank.proc.pid) continue;
    rank.running = false;
    close_fd(&rank.proc.in_fd);
    if (exit_code_) continue;  // already ending: this is our own kill
    if (is_failure(status))
      end_job(describe_rank_end(int(r), rank.proc.pid, status) + "; ending the job",
              exit_code_for(status));
  }
}

void Job::handle_wakeup() {
  char bytes[64];
  ssize_t n;
  while ((n = read(wake_[0], bytes, sizeof bytes)) > 0) {
    for (ssize_t i = 0; i < n; ++i) {
      const int sig = bytes[i];
      if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
        if (pgid_ > 0) killpg(pgid_, sig);
        end_job("received " + signal_name(sig) + "; ending the job (" +
                    std::to_string(running_count()) + " ranks running)",
                128 + sig);
      }
    }
  }
  for (const AbortEvent& e : server_.take_aborts()) {
    if (e.rank < 0 || size_t(e.rank) >= ranks_.size()) continue;
    end_job("rank " + std::to_string(e.rank) + " (pid " +
                std::to_string(ranks_[size_t(e.rank)].proc.pid) + ") aborted the job with code " +
                std::to_string(e.code) + ": " + e.message,
            e.code);
  }
  reap();
}

void Job::pump_stdin() {
  int& in = ranks_[0].proc.in_fd;
  if (in < 0) {
    stdin_pending_.clear();
    return;
  }
  while (!stdin_pending_.empty()) {
    const ssize_t n = write(in, stdin_pending_.data(), stdin_pending_.size());
    if (n <= 0) {
      if (n < 0 && errno == EAGAIN) return;
      close_fd(&in);  // rank 0 closed its stdin
      stdin_pending_.clear();
      return;
    }
    stdin_pending_.erase(0, size_t(n));
  }
  if (!stdin_open_) close_fd(&in);
}

void Job::loop() {
  const double deadline = options_.timeout_s > 0 ? now_s() + options_.timeout_s : 0;
  double drain_until = 0;
  while (running_count() > 0 || output_open()) {
    const double now = now_s();
    if (running_count() == 0) {
      if (drain_until == 0) drain_until = now + kDrainS;
      if (now >= drain_until) break;
    }
    if (deadline > 0 && now >= deadline && !exit_code_) {
      char secs[32];
      std::snprintf(secs, sizeof secs, "%g", options_.timeout_s);
      end_job(std::string("job timed out after ") + secs + " s; killing " +
                  std::to_string(running_count()) + " ranks",
              124);
    }
    if (exit_code_ && !killed_ && now >= kill_at_) {
      killpg(pgid_, SIGKILL);
      killed_ = true;
    }

    // What each polled fd is: a rank's stdout/stderr, weftrun's stdin, or rank 0's stdin pipe.
    struct Source {
      Rank* rank;
      bool is_err;
    };
    std::vector<pollfd> fds;
    std::vector<Source> sources;
    auto watch = [&](int fd, short events, Rank* rank, bool is_err) {
      fds.push_back({fd, events, 0});
      sources.push_back({rank, is_err});
    };
    watch(wake_[0], POLLIN, nullptr, false);
    for (Rank& r : ranks_) {
      if (r.proc.out_fd >= 0) watch(r.proc.out_fd, POLLIN, &r, false);
      if (r.proc.err_fd >= 0) watch(r.proc.err_fd, POLLIN, &r, true);
    }
    if (stdin_open_ && stdin_pending_.empty() && ranks_[0].proc.in_fd >= 0)
      watch(STDIN_FILENO, POLLIN, nullptr, false);
    if (!stdin_pending_.empty()) watch(ranks_[0].proc.in_fd, POLLOUT, nullptr, true);

    double wait_s = 0.25;
    if (deadline > 0 && !exit_code_) wait_s = std::min(wait_s, deadline - now);
    if (exit_code_ && !killed_) wait_s = std::min(wait_s, kill_at_ - now);
    if (drain_until > 0) wait_s = std::min(wait_s, drain_until - now);
    const int timeout_ms = wait_s > 0 ? int(wait_s * 1000) + 1 : 0;
    if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) break;

    for (size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      Rank* rank = sources[i].rank;
      if (rank != nullptr) {
        char buf[65536];
        int& fd = sources[i].is_err ? rank->proc.err_fd : rank->proc.out_fd;
        LineForwarder& fwd = sources[i].is_err ? *rank->err : *rank->out;
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
          fwd.feed(buf, size_t(n));
        } else if (n == 0 || errno != EINTR) {
          fwd.flush();
          close_fd(&fd);
        }
      } else if (fds[i].fd == STDIN_FILENO) {
        char buf[65536];
        const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n > 0) stdin_pending_.assign(buf, size_t(n));
        else if (n == 0 || errno != EINTR) stdin_open_ = false;
        pump_stdin();
      } else {
        pump_stdin();
      }
    }
    handle_wakeup();
  }
  // Output that stayed open past the drain (a rank's own children holding it) is dropped.
  for (Rank& r : ranks_) {
    if (r.out) r.out->flush();
    if (r.err) r.err->flush();
    close_fd(&r.proc.out_fd);
    close_fd(&r.proc.err_fd);
  }
}

int Job::run() {
  std::string error = start();
  if (!error.empty()) {
    std::fprintf(stderr, "weftrun: %s\n", error.c_str());
    if (pgid_ > 0) end_job("could not start every rank; ending the job", 1);
    exit_code_ = 1;
  }
  if (!ranks_.empty() && ranks_[0].proc.pid > 0) loop();
  // Anything still alive (only possible after a start failure) goes now.
  if (pgid_ > 0) killpg(pgid_, SIGKILL);
  for (Rank& r : ranks_)
    if (r.running && r.proc.pid > 0) waitpid(r.proc.pid, nullptr, 0);
  server_.stop();
  if (!tmpdir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(tmpdir_, ignored);
  }
  return exit_code_.value_or(0);
}

}  // namespace

int run_job(const LaunchOptions& options) {
  Job job(options);
  return job.run();
}

}  // namespace weft::launcher
