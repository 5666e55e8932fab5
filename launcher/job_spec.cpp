// JobSpec queries and its encoding on the weftrun ↔ weftd wire.
#include "launcher/job_spec.hpp"

#include <algorithm>

#include "launcher/wire.hpp"

namespace weft::launcher {

int JobSpec::app_of(int rank) const {
  int first = 0;
  for (size_t a = 0; a < apps.size(); ++a) {
    first += apps[a].nranks;
    if (rank < first) return int(a);
  }
  return int(apps.size()) - 1;
}

std::vector<int> JobSpec::ranks_on(int node) const {
  std::vector<int> ranks;
  for (size_t r = 0; r < node_of_rank.size(); ++r)
    if (node_of_rank[r] == node) ranks.push_back(int(r));
  return ranks;
}

int JobSpec::local_rank_of(int rank) const {
  int local = 0;
  for (int r = 0; r < rank; ++r) local += node_of_rank[size_t(r)] == node_of_rank[size_t(rank)];
  return local;
}

std::vector<int> JobSpec::tree_children(int node) const {
  std::vector<int> daemons;  // the nodes with a weftd, in order
  for (int n = 0; n < int(nodes.size()); ++n)
    if (n != launcher_node) daemons.push_back(n);
  const size_t k = fanout > 0 ? size_t(fanout) : daemons.size();
  // weftrun starts positions [0, k); the daemon at position p starts [(p + 1)k, (p + 2)k).
  size_t first = 0;
  if (node >= 0) {
    const auto at = std::find(daemons.begin(), daemons.end(), node);
    if (at == daemons.end()) return {};
    first = (size_t(at - daemons.begin()) + 1) * k;
  }
  std::vector<int> children;
  for (size_t p = first; p < first + k && p < daemons.size(); ++p) children.push_back(daemons[p]);
  return children;
}

std::string encode_job_spec(const JobSpec& spec) {
  BodyWriter w;
  w.str(spec.nspace).strings(spec.nodes).u32(uint32_t(spec.node_of_rank.size()));
  for (int n : spec.node_of_rank) w.i32(n);
  w.u32(uint32_t(spec.apps.size()));
  for (const AppContext& app : spec.apps) {
    std::vector<std::string> env;
    for (const auto& [name, value] : app.env) env.push_back(name + "=" + value);
    w.i32(app.nranks).strings(app.argv).str(app.wdir).strings(env);
  }
  const BindingOptions& b = spec.binding;
  w.strings(spec.env).u32(spec.tag_output ? 1 : 0).i32(int(b.bind)).u32(b.overload_allowed ? 1 : 0);
  w.i32(int(b.map)).i32(int(b.rank)).u32(b.report ? 1 : 0);
  w.str(spec.launch_agent).i32(spec.fanout).i32(spec.launcher_node).i32(spec.universe_size);
  return w.bytes();
}

bool decode_job_spec(const std::string& body, JobSpec* out) {
  BodyReader r(body);
  JobSpec spec;
  spec.nspace = r.str();
  spec.nodes = r.strings();
  const uint32_t nranks = r.u32();
  for (uint32_t i = 0; i < nranks && r.ok(); ++i) spec.node_of_rank.push_back(r.i32());
  const uint32_t napps = r.u32();
  for (uint32_t a = 0; a < napps && r.ok(); ++a) {
    AppContext app;
    app.nranks = r.i32();
    app.argv = r.strings();
    app.wdir = r.str();
    for (const std::string& entry : r.strings()) {
      const size_t eq = entry.find('=');
      app.env.emplace_back(entry.substr(0, eq), eq == std::string::npos ? "" : entry.substr(eq + 1));
    }
    spec.apps.push_back(std::move(app));
  }
  spec.env = r.strings();
  spec.tag_output = r.u32() != 0;
  const int bind = r.i32();
  spec.binding.overload_allowed = r.u32() != 0;
  const int map = r.i32();
  const int rank = r.i32();
  spec.binding.report = r.u32() != 0;
  spec.launch_agent = r.str();
  spec.fanout = r.i32();
  spec.launcher_node = r.i32();
  spec.universe_size = r.i32();
  if (!r.ok() || bind < 0 || bind > int(Binding::kNone) || map < 0 || map > 1 || rank < 0 ||
      rank > 1)
    return false;
  spec.binding.bind = Binding(bind);
  spec.binding.map = NodeOrder(map);
  spec.binding.rank = NodeOrder(rank);
  for (int n : spec.node_of_rank)
    if (n < 0 || size_t(n) >= spec.nodes.size()) return false;
  int total = 0;
  for (const AppContext& app : spec.apps) total += app.nranks;
  if (spec.apps.empty() || total != int(nranks)) return false;
  *out = std::move(spec);
  return true;
}

}  // namespace weft::launcher
