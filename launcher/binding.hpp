// Where each of a node's ranks runs: a binding plan over the node's topology (packages, cores,
// PUs), made by the launcher that starts the ranks (weftrun or weftd). By default each rank gets
// a core of its own when there are enough (as Open MPI does); see the Binding paragraph of README.
#pragma once
#include <string>
#include <vector>

namespace weft::launcher {

enum class Binding { kAuto, kCore, kPackage, kNone };
// The order in which a node's ranks take its cores: one after another (--map-by slot|node|core),
// or round-robin over packages (--map-by package).
enum class NodeOrder { kCore, kPackage };

// The binding options of a job (--bind-to, the within-node part of --map-by, --rank-by,
// --report-bindings), the same on every node.
struct BindingOptions {
  Binding bind = Binding::kAuto;
  bool overload_allowed = false;  // --bind-to core:overload-allowed
  NodeOrder map = NodeOrder::kCore;
  NodeOrder rank = NodeOrder::kCore;  // --rank-by (without it, the same as `map`)
  bool report = false;
};

// The part of a node's topology ranks may use: its cores in hardware order, each with its
// package's index and its PUs (hardware threads, as OS CPU numbers) inside the allowed cpuset.
struct CoreInfo {
  int package = 0;
  int core = 0;  // the core's logical index on the node
  std::vector<int> pus;
};
using NodeTopology = std::vector<CoreInfo>;

// One rank's binding: `pus` empty means not bound; `core` is -1 when bound to a whole package.
struct RankBinding {
  int package = -1;
  int core = -1;
  std::vector<int> pus;
};

// The bindings of a node's `nranks` ranks, in local rank order. Fails with `error` naming `host`
// and the counts when --bind-to core was given for more ranks than cores (without
// overload-allowed). With no topology (it could not be read) nothing is bound.
bool plan_binding(const BindingOptions& options, int nranks, const NodeTopology& topology,
                  const std::string& host, std::vector<RankBinding>* out, std::string* error);

// "package 0 core 1 (PUs 1,5)", "package 1 (PUs 2-3,6-7)" or "nothing".
std::string describe_binding(const RankBinding& binding);

}  // namespace weft::launcher
