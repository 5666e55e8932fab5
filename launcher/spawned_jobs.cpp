// Starting, watching and reaping the jobs MPI_Comm_spawn asks for.
#include "launcher/spawned_jobs.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "launcher/job_plan.hpp"
#include "launcher/spawn.hpp"

namespace weft::launcher {
namespace {

// The spawned job's spec: `parent`'s nodes and environment, every rank on `node`.
std::string plan(const JobSpec& parent, int node, const SpawnRequest& request, int serial,
                 JobSpec* spec) {
  spec->nspace = parent.nspace + ".spawn" + std::to_string(serial);
  spec->nodes = parent.nodes;
  spec->env = parent.env;
  spec->tag_output = parent.tag_output;
  spec->binding.bind = Binding::kNone;  // the parents hold the cores already
  spec->launcher_node = node;
  const std::string& here = parent.nodes[size_t(node)];
  for (const SpawnRequest::App& given : request.apps) {
    AppContext app = given.context;
    if (app.argv.empty() || app.nranks <= 0) return "an empty command or maxprocs <= 0";
    for (size_t at = 0; at <= given.host.size() && !given.host.empty();) {
      size_t end = given.host.find(',', at);
      if (end == std::string::npos) end = given.host.size();
      const std::string host = given.host.substr(at, end - at);
      if (host != here && !is_this_host(host))
        return "host " + host + " was asked for " + app.argv[0] +
               ", but spawned processes start on weftrun's node (" + here + ") only";
      at = end + 1;
    }
    std::error_code ec;
    if (!app.wdir.empty() && !std::filesystem::is_directory(app.wdir, ec))
      return "cannot use '" + app.wdir + "' as the working directory of " + app.argv[0];
    std::string program = app.argv[0];
    if (!app.wdir.empty() && program.find('/') != std::string::npos && program[0] != '/')
      program = app.wdir + "/" + program;
    std::string error;
    app.argv[0] = resolve_program(program, &error);
    if (app.argv[0].empty()) return error;
    spec->node_of_rank.insert(spec->node_of_rank.end(), size_t(app.nranks), node);
    spec->apps.push_back(std::move(app));
  }
  spec->universe_size = parent.universe_size;
  return {};
}

}  // namespace

std::string SpawnedJobs::start(const JobSpec& parent, int node, PmixServer* server,
                               const SpawnRequest& request, std::string* nspace) {
  auto job = std::make_unique<Job>();
  if (std::string e = plan(parent, node, request, int(jobs_.size()) + 1, &job->spec); !e.empty())
    return e;
  if (std::string e = server->register_job(job->spec, node, parent.universe_size); !e.empty())
    return e;
  for (int r = 0; r < job->spec.nranks(); ++r) {
    const std::string prefix =
        job->spec.tag_output ? "[" + job->spec.nspace + ":" + std::to_string(r) + "] " : "";
    job->out.push_back(std::make_unique<LineForwarder>(STDOUT_FILENO, prefix));
    job->err.push_back(std::make_unique<LineForwarder>(STDERR_FILENO, prefix));
  }
  *nspace = job->spec.nspace;
  std::string e = job->ranks.start(job->spec, node, server, false);
  jobs_.push_back(std::move(job));  // what started is watched and reaped like the rest
  return e;
}

void SpawnedJobs::watch(std::vector<pollfd>* fds) const {
  for (const auto& job : jobs_) job->ranks.watch(fds);
}

void SpawnedJobs::handle(const std::vector<pollfd>& fds) {
  for (const auto& job : jobs_) {
    job->ranks.handle(fds, [&job](int rank, int stream, const char* data, size_t len) {
      LineForwarder& fwd = stream == 2 ? *job->err[size_t(rank)] : *job->out[size_t(rank)];
      if (len > 0) fwd.feed(data, len);
      else fwd.flush();
    });
  }
}

void SpawnedJobs::reap(const ExitFn& exited) {
  for (const auto& job : jobs_) {
    job->ranks.reap([&](int rank, pid_t pid, int status) {
      exited(job->spec.nspace + " rank " + std::to_string(rank) + " (" +
                 job->spec.apps[size_t(job->spec.app_of(rank))].argv[0] + ")",
             pid, status);
    });
  }
}

void SpawnedJobs::signal_all(int sig) {
  for (const auto& job : jobs_) job->ranks.signal_all(sig);
}

void SpawnedJobs::close_outputs() {
  for (const auto& job : jobs_) {
    job->ranks.close_outputs([](int, int, const char*, size_t) {});
    for (auto& f : job->out) f->flush();
    for (auto& f : job->err) f->flush();
  }
}

int SpawnedJobs::running() const {
  int n = 0;
  for (const auto& job : jobs_) n += job->ranks.running();
  return n;
}

bool SpawnedJobs::output_open() const {
  for (const auto& job : jobs_)
    if (job->ranks.output_open()) return true;
  return false;
}

}  // namespace weft::launcher
