// Parsing of weftrun's options: the job's options, then app contexts separated by ':', each its
// own options followed by the program and its arguments.
#include "launcher/args.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "profile/kinds.hpp"

namespace weft::launcher {
namespace {

bool parse_seconds(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(v > 0)) return false;
  *out = v;
  return true;
}

bool valid_env_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// The job's rank count. With hosts and no -n, one rank per slot (or --npernode per host), as
// Open MPI does.
bool count_ranks(LaunchOptions* o, std::string* error) {
  if (!o->nranks_given && o->apps.size() == 1 && !o->hosts.empty()) {
    long slots = 0;
    std::vector<std::string> names;
    for (const HostSlots& h : o->hosts) {
      slots += h.slots;
      if (std::find(names.begin(), names.end(), h.name) == names.end()) names.push_back(h.name);
    }
    if (o->per_node > 0) slots = long(o->per_node) * long(names.size());
    o->apps[0].nranks = int(std::min(slots, long(1 << 20)));
  }
  o->nranks = 0;
  for (const AppContext& app : o->apps) {
    if (o->nranks > (1 << 20) - app.nranks) {
      *error = "too many ranks in all (at most " + std::to_string(1 << 20) + ")";
      return false;
    }
    o->nranks += app.nranks;
  }
  return true;
}

// The order of a node's ranks named by --map-by or --rank-by ("socket" is Open MPI's older
// word for package).
bool node_order(const std::string& text, NodeOrder* out) {
  if (text == "slot" || text == "core") {
    *out = NodeOrder::kCore;
  } else if (text == "package" || text == "socket") {
    *out = NodeOrder::kPackage;
  } else {
    return false;
  }
  return true;
}

// --bind-to core|package|none|auto, with Open MPI's ":overload-allowed" after it.
bool parse_bind_to(const std::string& text, BindingOptions* out, std::string* error) {
  const size_t colon = text.find(':');
  const std::string what = text.substr(0, colon);
  const std::string modifier = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (what == "core") {
    out->bind = Binding::kCore;
  } else if (what == "package" || what == "socket") {
    out->bind = Binding::kPackage;
  } else if (what == "none") {
    out->bind = Binding::kNone;
  } else if (what == "auto") {
    out->bind = Binding::kAuto;
  } else {
    *error = "invalid --bind-to '" + text + "' (want core, package, none or auto)";
    return false;
  }
  if (!modifier.empty() && modifier != "overload-allowed") {
    *error =
        "invalid --bind-to modifier '" + modifier + "' in '" + text + "' (want overload-allowed)";
    return false;
  }
  out->overload_allowed = !modifier.empty();
  return true;
}

}  // namespace

bool parse_args(const std::vector<std::string>& argv, LaunchOptions* out, std::string* error) {
  LaunchOptions o;
  size_t i = 1;
  // The value of an option given as "--opt value" or "--opt=value".
  auto value_of = [&](const std::string& arg, const std::string& name, std::string* value) {
    if (arg == name) {
      if (i + 1 >= argv.size()) {
        *error = "option " + name + " needs a value";
        return false;
      }
      *value = argv[++i];
      return true;
    }
    *value = arg.substr(name.size() + 1);
    return true;
  };
  // The NAME VALUE pair of -genv and -env.
  auto name_value = [&](const std::string& option, std::string* name, std::string* value) {
    if (i + 2 >= argv.size()) {
      *error = "option " + option + " needs a name and a value";
      return false;
    }
    *name = argv[++i];
    *value = argv[++i];
    if (!valid_env_name(*name)) {
      *error = "invalid environment variable name '" + *name + "' for " + option;
      return false;
    }
    return true;
  };

  bool count_given = false;  // -n for the first (or only) context
  std::optional<NodeOrder> rank_by;
  for (bool first_context = true;; first_context = false) {
    AppContext app;
    for (; i < argv.size(); ++i) {
      const std::string& arg = argv[i];
      if (arg.empty() || arg[0] != '-') break;
      if (arg == "--") {
        ++i;
        break;
      }
      std::string value;
      auto is = [&](const char* name) {
        const std::string n = name;
        return arg == n || (n.size() > 2 && arg.rfind(n + "=", 0) == 0);
      };
      // Options of one app context, also accepted after ':'.
      if (is("-n") || is("-np") || is("--np") || is("--n")) {
        const std::string name = arg.substr(0, arg.find('='));
        if (!value_of(arg, name, &value)) return false;
        if (!parse_count(value, &app.nranks)) {
          *error = "invalid number of ranks '" + value + "' for " + name + " (want an integer >= 1)";
          return false;
        }
        count_given = count_given || first_context;
        continue;
      }
      if (is("-wdir") || is("--wdir") || is("-wd") || is("--wd")) {
        const std::string name = arg.substr(0, arg.find('='));
        if (!value_of(arg, name, &value)) return false;
        (first_context ? o.wdir : app.wdir) = value;
        continue;
      }
      if (arg == "-env") {
        std::string name;
        if (!name_value(arg, &name, &value)) return false;
        app.env.emplace_back(name, value);
        continue;
      }
      if (!first_context) {
        *error = "option " + arg + " applies to the whole job: give it before the first program";
        return false;
      }
      // Options of the whole job.
      if (arg == "-h" || arg == "--help") {
        o.help = true;
      } else if (arg == "--version" || arg == "-V") {
        o.version = true;
      } else if (is("--report-state")) {
        if (!value_of(arg, "--report-state", &value)) return false;
        int pid = 0;
        if (!parse_count(value, &pid)) {
          *error = "invalid --report-state '" + value + "' (want the pid of a running weftrun)";
          return false;
        }
        o.report_state_of = pid;
      } else if (arg == "--tag-output" || arg == "-l") {
        o.tag_output = true;
      } else if (is("--timeout")) {
        if (!value_of(arg, "--timeout", &value)) return false;
        if (!parse_seconds(value, &o.timeout_s)) {
          *error = "invalid --timeout '" + value + "' (want seconds > 0)";
          return false;
        }
      } else if (is("--bind-to")) {
        if (!value_of(arg, "--bind-to", &value)) return false;
        if (!parse_bind_to(value, &o.binding, error)) return false;
      } else if (is("--rank-by")) {
        if (!value_of(arg, "--rank-by", &value)) return false;
        NodeOrder order;
        if (!node_order(value, &order)) {
          *error = "invalid --rank-by '" + value + "' (want slot, core or package)";
          return false;
        }
        rank_by = order;
      } else if (arg == "--report-bindings") {
        o.binding.report = true;
      } else if (arg == "-x") {
        if (!value_of(arg, "-x", &value)) return false;
        const size_t eq = value.find('=');
        const std::string name = value.substr(0, eq);
        if (!valid_env_name(name)) {
          *error = "invalid environment variable name '" + name + "' for -x";
          return false;
        }
        o.exports.emplace_back(name, eq == std::string::npos
                                         ? std::nullopt
                                         : std::optional(value.substr(eq + 1)));
      } else if (arg == "-genv") {
        std::string name;
        if (!name_value(arg, &name, &value)) return false;
        o.exports.emplace_back(name, value);
      } else if (arg == "-genvlist" || arg == "-envlist") {
        if (!value_of(arg, arg, &value)) return false;
        for (size_t at = 0; at <= value.size();) {
          const size_t comma = std::min(value.find(',', at), value.size());
          const std::string name = value.substr(at, comma - at);
          if (!valid_env_name(name)) {
            *error = "invalid environment variable name '" + name + "' in " + arg;
            return false;
          }
          o.exports.emplace_back(name, std::nullopt);
          at = comma + 1;
        }
      } else if (is("--host") || arg == "-H" || arg == "-hosts" || arg == "-host") {
        const std::string name = arg.substr(0, arg.find('='));
        if (!value_of(arg, name, &value)) return false;
        if (!parse_host_list(value, &o.hosts, error)) return false;
      } else if (is("--hostfile") || is("--machinefile") || arg == "-f" || arg == "-hostfile" ||
                 arg == "-machinefile") {
        const std::string name = arg.substr(0, arg.find('='));
        if (!value_of(arg, name, &value)) return false;
        std::ifstream file(value);
        std::stringstream text;
        text << file.rdbuf();
        if (!file) {
          *error = "cannot read hostfile '" + value + "' given with " + name;
          return false;
        }
        if (!parse_hostfile(text.str(), value, &o.hosts, error)) return false;
      } else if (is("--map-by")) {
        if (!value_of(arg, "--map-by", &value)) return false;
        // core and package fill the hosts' slots as slot does, and order each node's ranks.
        o.map_by = value == "node" ? MapBy::kNode : MapBy::kSlot;
        if (value != "node" && !node_order(value, &o.binding.map)) {
          *error = "invalid --map-by '" + value + "' (want slot, node, core or package)";
          return false;
        }
      } else if (is("--npernode") || arg == "-N" || arg == "-ppn") {
        const std::string name = arg.substr(0, arg.find('='));
        if (!value_of(arg, name, &value)) return false;
        if (!parse_count(value, &o.per_node)) {
          *error = "invalid count '" + value + "' for " + name + " (want an integer >= 1)";
          return false;
        }
      } else if (is("--launch-agent")) {
        if (!value_of(arg, "--launch-agent", &value)) return false;
        o.launch_agent = value;
        o.agent_given = true;
      } else if (is("--fanout")) {
        if (!value_of(arg, "--fanout", &value)) return false;
        if (!parse_count(value, &o.fanout)) {
          *error = "invalid --fanout '" + value + "' (want an integer >= 1)";
          return false;
        }
      } else if (is("--launcher-address")) {
        if (!value_of(arg, "--launcher-address", &value)) return false;
        o.launcher_address = value;
      } else if (arg == "-envall" || arg == "-genvall") {
        // Every rank gets weftrun's whole environment anyway.
      } else if (is("--profile")) {
        // --profile[=KIND]: WEFT_PROFILE for the job, which loads the profiler into the ranks.
        value = arg == "--profile" ? "summary" : arg.substr(std::string("--profile=").size());
        profile::Kinds kinds;
        if (!profile::parse_kinds(value, "--profile", &kinds, error)) return false;
        o.settings.emplace_back("WEFT_PROFILE", value);
      } else if (is("--transport")) {
        if (!value_of(arg, "--transport", &value)) return false;
        if (value != "ucx" && value != "ofi" && value != "auto") {
          *error = "invalid --transport '" + value + "' (want ucx, ofi or auto)";
          return false;
        }
        o.settings.emplace_back("WEFT_TRANSPORT", value);
      } else if (is("--set")) {
        if (!value_of(arg, "--set", &value)) return false;
        const size_t eq = value.find('=');
        if (eq == std::string::npos || !valid_env_name(value.substr(0, eq))) {
          *error = "invalid --set '" + value + "' (want name=value)";
          return false;
        }
        std::string name = value.substr(0, eq);
        for (char& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
        if (name.rfind("WEFT_", 0) != 0) name = "WEFT_" + name;
        o.settings.emplace_back(name, value.substr(eq + 1));
      } else {
        *error = "unknown option '" + arg + "' (try weftrun --help)";
        return false;
      }
    }
    for (; i < argv.size() && argv[i] != ":"; ++i) app.argv.push_back(argv[i]);
    const bool more = i < argv.size();  // stopped at ':'
    if (app.argv.empty()) {
      if (more || !first_context) {
        *error = "an app context has no program (usage: weftrun -n N ./a : -n M ./b)";
        return false;
      }
      if (!o.help && !o.version && o.report_state_of == 0) {
        *error = "no program to run (usage: weftrun -n N program [args...])";
        return false;
      }
      break;
    }
    o.apps.push_back(std::move(app));
    if (!more) break;
    ++i;  // past ':'
  }
  o.binding.rank = rank_by.value_or(o.binding.map);
  o.nranks_given = count_given;
  if (!count_ranks(&o, error)) return false;
  *out = std::move(o);
  return true;
}

bool use_slurm_allocation(const std::function<const char*(const char*)>& getenv,
                          LaunchOptions* options, std::string* error) {
  const char* nodelist = getenv("SLURM_JOB_NODELIST");
  if (!options->hosts.empty() || nodelist == nullptr || getenv("SLURM_STEP_ID") != nullptr)
    return true;
  const char* tasks = getenv("SLURM_TASKS_PER_NODE");
  if (tasks == nullptr) tasks = getenv("SLURM_JOB_CPUS_PER_NODE");
  if (tasks == nullptr) {
    *error = "inside a Slurm allocation without SLURM_TASKS_PER_NODE or SLURM_JOB_CPUS_PER_NODE";
    return false;
  }
  if (!slurm_allocation(nodelist, tasks, &options->hosts, error)) return false;
  if (!options->agent_given)
    options->launch_agent =
        "srun --overlap --mpi=none --nodes=1 --ntasks=1 --nodelist={host} --kill-on-bad-exit=1 "
        "--quiet";
  return count_ranks(options, error);
}

std::string usage_text() {
  return "usage: weftrun [options] program [args...]   (also mpirun, mpiexec)\n"
         "       weftrun [options] -n N prog [args] : -n M prog2 [args] ...   (MPMD)\n"
         "  -n, -np N          start N ranks (default 1); more ranks than cores is fine\n"
         "  -wdir DIR          the ranks' working directory (-wd, --wdir)\n"
         "  -env VAR VALUE     set VAR in this program's ranks\n"
         "  (these three may follow each ':' too; the options below apply to the whole job)\n"
         "  --tag-output, -l   prefix every output line with [rank]\n"
         "  --timeout SECONDS  end the job if it runs longer (exit code 124)\n"
         "  --bind-to WHAT     core: bind each rank to a core of its own (an error when the\n"
         "                     node has fewer cores, unless core:overload-allowed); package:\n"
         "                     to its core's package; none; auto (default): core when each\n"
         "                     rank on the node gets a core of its own, else none\n"
         "  --report-bindings  print each rank's binding on stderr\n"
         "  -x VAR[=value]     pass VAR (its current value, or the one given) to the ranks\n"
         "  -genv VAR VALUE    set VAR in every rank; -genvlist A,B passes A and B\n"
         "  -envall, -genvall  accepted: every rank gets weftrun's environment anyway\n"
         "  --set name=value   set the Weft setting WEFT_<NAME> in every rank\n"
         "  --profile[=KIND]   profile the job's MPI calls: summary (default; a report on\n"
         "                     stderr and an HTML page at MPI_Finalize), trace (a timeline\n"
         "                     for Perfetto) or summary,trace; as WEFT_PROFILE=KIND does\n"
         "  --transport T      the network transport: ucx, ofi (libfabric) or auto (default;\n"
         "                     as WEFT_TRANSPORT, see weft(7))\n"
         "  --host H1:N,H2:M   run on these hosts (-H, -hosts), N and M slots (default 1)\n"
         "  --hostfile FILE    hosts from a file (-f, -machinefile): 'host slots=N' or 'host:N'\n"
         "  --map-by slot|node fill each host's slots in turn (default), or deal round-robin\n"
         "  --map-by core|package  fill slots as slot does; a node's ranks take its cores in\n"
         "                     order (core), or round-robin over its packages (package)\n"
         "  --rank-by slot|core|package  the order of a node's ranks over the cores mapped\n"
         "                     (default: as mapped)\n"
         "  --npernode N       exactly N ranks per host (-N, -ppn)\n"
         "  --launch-agent CMD how weftd starts on other hosts; {host} is replaced\n"
         "                     (default: ssh -x -o BatchMode=yes -o ConnectTimeout=10 {host})\n"
         "  --launcher-address ADDR[:PORT]  where the daemons connect back to (default: found)\n"
         "  --fanout K         each launcher starts at most K daemons; more hosts start as a\n"
         "                     tree, in log_K(hosts) steps (default 32)\n"
         "  --report-state PID the weftrun with this pid prints what each rank is blocked in\n"
         "                     (as SIGUSR1 to it does; --timeout prints it before ending)\n"
         "  -h, --help         this text;  --version  Weft's version\n";
}

}  // namespace weft::launcher
