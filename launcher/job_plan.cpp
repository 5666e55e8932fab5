// Building the JobSpec from weftrun's options.
#include "launcher/job_plan.hpp"

#include <unistd.h>

#include <filesystem>

#include "launcher/agent.hpp"
#include "launcher/hang_report.hpp"
#include "launcher/rank_env.hpp"
#include "launcher/spawn.hpp"

extern char** environ;

namespace weft::launcher {
namespace {

std::string this_host() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

}  // namespace

bool is_this_host(const std::string& name) {
  const std::string me = this_host();
  return name == "localhost" || name == "127.0.0.1" || name == me ||
         name == me.substr(0, me.find('.'));
}

std::string plan_job(const LaunchOptions& options, JobSpec* spec) {
  Placement placement;
  if (options.hosts.empty()) {
    placement.nodes = {this_host()};
    placement.node_of_rank.assign(size_t(options.nranks), 0);
  } else {
    std::string error;
    if (!place_ranks(options.hosts, options.nranks, options.map_by, options.per_node, &placement,
                     &error))
      return error;
  }
  spec->nspace = "weft." + std::to_string(getpid());
  spec->nodes = placement.nodes;
  spec->node_of_rank = placement.node_of_rank;
  spec->launcher_node = -1;
  for (size_t n = 0; n < spec->nodes.size() && spec->launcher_node < 0; ++n)
    if (options.hosts.empty() || is_this_host(spec->nodes[n])) spec->launcher_node = int(n);
  spec->universe_size = int(spec->node_of_rank.size());
  if (spec->launcher_node >= 0) {
    const long spare = sysconf(_SC_NPROCESSORS_ONLN) - long(spec->ranks_on(spec->launcher_node).size());
    if (spare > 0) spec->universe_size += int(spare);
  }
  // Each app context's program found and directory checked now, so that a mistake is one clear
  // line before any rank starts (other hosts are assumed to have the same paths).
  for (const AppContext& given : options.apps) {
    AppContext app = given;
    std::string error;
    app.argv[0] = resolve_program(given.argv[0], &error);
    if (app.argv[0].empty()) return error;
    if (app.wdir.empty()) app.wdir = options.wdir;
    std::error_code ec;
    if (!app.wdir.empty() && !std::filesystem::is_directory(app.wdir, ec))
      return "cannot use '" + app.wdir + "' as the working directory of " + given.argv[0] + ": " +
             (ec ? ec.message() : "not a directory");
    spec->apps.push_back(std::move(app));
  }
  EnvMap env = job_environment(parse_environ(environ), options, spec->nodes.size() == 1);
  if (std::string error; !add_profiler(&env, profiler_library(), &error)) return error;
  env["WEFT_STATE_SIGNAL"] = std::to_string(state_signal());
  spec->env = to_strings(env);
  spec->tag_output = options.tag_output;
  spec->binding = options.binding;
  spec->launch_agent = options.launch_agent;
  spec->fanout = options.fanout;
  return {};
}

}  // namespace weft::launcher
