// weftrun's command line: parsed into LaunchOptions by a pure function (unit-tested).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "launcher/binding.hpp"
#include "launcher/hosts.hpp"

namespace weft::launcher {

// One program of the job with its ranks (MPMD: weftrun -n 1 ./a : -n 3 ./b has two). Its ranks
// follow those of the contexts before it, and MPI_APPNUM is its index.
struct AppContext {
  int nranks = 1;
  std::vector<std::string> argv;  // program and its arguments
  std::string wdir;               // working directory ("" = weftrun's, or the job's -wdir)
  // -env NAME VALUE: set for this context's ranks only.
  std::vector<std::pair<std::string, std::string>> env;
};

struct LaunchOptions {
  int nranks = 1;  // all contexts' ranks together
  std::vector<AppContext> apps;
  std::string wdir;  // -wdir before the first program: every context's default
  bool tag_output = false;
  double timeout_s = 0;  // 0 = no limit
  // Placement: --host/--hostfile entries (none: every rank on this machine), --map-by,
  // --npernode; weftd is started on the other hosts through `launch_agent`.
  std::vector<HostSlots> hosts;
  MapBy map_by = MapBy::kSlot;
  int per_node = 0;
  std::string launch_agent = "ssh -x -o BatchMode=yes -o ConnectTimeout=10 {host}";
  int fanout = 32;  // --fanout: daemons each launcher starts (a tree beyond that many hosts)
  bool nranks_given = false;  // -n for the first (or only) app context
  bool agent_given = false;
  std::string launcher_address;  // ADDR[:PORT] the daemons connect back to ("" = found)
  // --bind-to, --map-by core|package (within each node), --rank-by, --report-bindings.
  BindingOptions binding;
  // -x VAR (value taken from weftrun's environment), -x VAR=value, -genv VAR value.
  std::vector<std::pair<std::string, std::optional<std::string>>> exports;
  // --set name=value becomes WEFT_<NAME>=value in every rank.
  std::vector<std::pair<std::string, std::string>> settings;
  bool help = false;
  bool version = false;
  long report_state_of = 0;  // --report-state PID: ask that weftrun for its hang report
};

// Parses argv (argv[0] is weftrun itself): global options, then one or more app contexts
// separated by ':' (each: its own -n, -wdir, -env, then the program and its arguments). On
// failure returns false and sets `error`.
bool parse_args(const std::vector<std::string>& argv, LaunchOptions* out, std::string* error);

// Inside a Slurm allocation (SLURM_JOB_NODELIST set, not inside a job step) and with no hosts
// given: the allocation's nodes and slots become the hosts, and weftd is started with srun unless
// --launch-agent was given. `getenv` looks up weftrun's environment.
bool use_slurm_allocation(const std::function<const char*(const char*)>& getenv,
                          LaunchOptions* options, std::string* error);

std::string usage_text();

}  // namespace weft::launcher
