// Starting, watching and reaping one node's ranks.
#include "launcher/local_ranks.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "launcher/binding.hpp"
#include "launcher/node_topology.hpp"
#include "launcher/rank_env.hpp"

namespace weft::launcher {
namespace {

void close_fd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

}  // namespace

LocalRanks::~LocalRanks() {
  if (pgid_ > 0 && running() > 0) killpg(pgid_, SIGKILL);
  for (Rank& r : ranks_) {
    if (r.running && r.proc.pid > 0) waitpid(r.proc.pid, nullptr, 0);
    close_fd(&r.proc.out_fd);
    close_fd(&r.proc.err_fd);
    close_fd(&r.proc.in_fd);
  }
}

std::string LocalRanks::start(const JobSpec& spec, int node, PmixServer* server,
                              bool stdin_to_rank0) {
  EnvMap common;
  for (const std::string& entry : spec.env) {
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) common[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  const std::vector<int> here = spec.ranks_on(node);
  const std::string& host = spec.nodes[size_t(node)];
  std::vector<RankBinding> bindings;
  std::string error;
  // Reading the topology takes a few milliseconds: not done when nothing is to be bound.
  const NodeTopology topology =
      spec.binding.bind == Binding::kNone ? NodeTopology{} : node_topology();
  if (!plan_binding(spec.binding, int(here.size()), topology, host, &bindings, &error))
    return error;
  for (size_t i = 0; i < here.size(); ++i) {
    const int r = here[i];
    const AppContext& app = spec.apps[size_t(spec.app_of(r))];
    EnvMap env = common;
    for (const auto& [name, value] : app.env) env[name] = value;
    add_rank_identity(&env, r, spec.nranks(), int(i), int(here.size()));
    std::vector<std::string> env_strings = to_strings(env);
    if (std::string e = server->add_client_env(spec.nspace, r, &env_strings); !e.empty()) return e;
    if (spec.binding.report)
      log_("rank " + std::to_string(r) + " on " + host +
           (bindings[i].pus.empty() ? " not bound" : " bound to " + describe_binding(bindings[i])));
    ranks_.push_back(Rank{r, {}, true});
    Rank& rank = ranks_.back();
    if (std::string e = spawn_rank(app.argv, env_strings, app.wdir, pgid_, r == 0 && stdin_to_rank0,
                                   bindings[i].pus, &rank.proc);
        !e.empty()) {
      ranks_.pop_back();
      return e;
    }
    if (pgid_ == 0) pgid_ = rank.proc.pid;
  }
  return {};
}

void LocalRanks::watch(std::vector<pollfd>* fds) const {
  for (const Rank& r : ranks_) {
    if (r.proc.out_fd >= 0) fds->push_back({r.proc.out_fd, POLLIN, 0});
    if (r.proc.err_fd >= 0) fds->push_back({r.proc.err_fd, POLLIN, 0});
    if (r.proc.in_fd >= 0 && !stdin_pending_.empty()) fds->push_back({r.proc.in_fd, POLLOUT, 0});
  }
}

void LocalRanks::handle(const std::vector<pollfd>& fds, const OutputFn& output) {
  pump_stdin();
  for (const pollfd& p : fds) {
    if (p.revents == 0 || (p.events & POLLIN) == 0) continue;
    for (Rank& r : ranks_) {
      int* fd = p.fd == r.proc.out_fd ? &r.proc.out_fd : p.fd == r.proc.err_fd ? &r.proc.err_fd
                                                                                : nullptr;
      if (fd == nullptr || *fd < 0) continue;
      const int stream = fd == &r.proc.out_fd ? 1 : 2;
      char buf[65536];
      const ssize_t n = read(*fd, buf, sizeof buf);
      if (n > 0) {
        output(r.rank, stream, buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        output(r.rank, stream, nullptr, 0);
        close_fd(fd);
      }
    }
  }
}

void LocalRanks::reap(const ExitFn& exited) {
  for (Rank& r : ranks_) {
    if (!r.running) continue;
    int status = 0;
    if (waitpid(r.proc.pid, &status, WNOHANG) != r.proc.pid) continue;
    r.running = false;
    close_fd(&r.proc.in_fd);
    exited(r.rank, r.proc.pid, status);
  }
}

void LocalRanks::signal_all(int sig) {
  if (pgid_ > 0) killpg(pgid_, sig);
}

void LocalRanks::close_outputs(const OutputFn& output) {
  for (Rank& r : ranks_) {
    if (r.proc.out_fd >= 0) output(r.rank, 1, nullptr, 0);
    if (r.proc.err_fd >= 0) output(r.rank, 2, nullptr, 0);
    close_fd(&r.proc.out_fd);
    close_fd(&r.proc.err_fd);
  }
}

int LocalRanks::running() const {
  int n = 0;
  for (const Rank& r : ranks_) n += r.running;
  return n;
}

bool LocalRanks::output_open() const {
  for (const Rank& r : ranks_)
    if (r.proc.out_fd >= 0 || r.proc.err_fd >= 0) return true;
  return false;
}

pid_t LocalRanks::pid_of(int rank) const {
  for (const Rank& r : ranks_)
    if (r.rank == rank) return r.proc.pid;
  return -1;
}

int* LocalRanks::stdin_fd() {
  for (Rank& r : ranks_)
    if (r.rank == 0) return &r.proc.in_fd;
  return nullptr;
}

bool LocalRanks::stdin_open() const {
  for (const Rank& r : ranks_)
    if (r.rank == 0) return r.proc.in_fd >= 0;
  return false;
}

void LocalRanks::give_stdin(const char* data, size_t len) {
  stdin_pending_.append(data, len);
  pump_stdin();
}

void LocalRanks::end_stdin() {
  stdin_ended_ = true;
  pump_stdin();
}

void LocalRanks::pump_stdin() {
  int* in = stdin_fd();
  if (in == nullptr || *in < 0) {
    stdin_pending_.clear();
    return;
  }
  while (!stdin_pending_.empty()) {
    const ssize_t n = write(*in, stdin_pending_.data(), stdin_pending_.size());
    if (n <= 0) {
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
      close_fd(in);  // rank 0 closed its stdin
      stdin_pending_.clear();
      return;
    }
    stdin_pending_.erase(0, size_t(n));
  }
  if (stdin_ended_) close_fd(in);
}

}  // namespace weft::launcher
