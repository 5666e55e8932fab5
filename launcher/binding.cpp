// The binding plan of one node's ranks: which cores they take, in which order, and what each is
// bound to. Pure (unit-tested with made-up topologies); node_topology.* reads the real one.
#include "launcher/binding.hpp"

#include <algorithm>

namespace weft::launcher {
namespace {

// `cores` (indices into `topology`, in hardware order) in the order `order` gives them: as they
// are, or round-robin over their packages (the first core of each package, then the second...).
std::vector<size_t> ordered(const std::vector<size_t>& cores, NodeOrder order,
                            const NodeTopology& topology) {
  if (order == NodeOrder::kCore) return cores;
  std::vector<int> packages;
  for (size_t c : cores)
    if (std::find(packages.begin(), packages.end(), topology[c].package) == packages.end())
      packages.push_back(topology[c].package);
  std::vector<std::vector<size_t>> by_package(packages.size());
  for (size_t c : cores)
    by_package[size_t(std::find(packages.begin(), packages.end(), topology[c].package) -
                      packages.begin())]
        .push_back(c);
  std::vector<size_t> out;
  for (size_t k = 0; out.size() < cores.size(); ++k)
    for (const std::vector<size_t>& list : by_package)
      if (k < list.size()) out.push_back(list[k]);
  return out;
}

// The core each local rank is placed on: --map-by picks which cores a pass over the node takes
// (all of them while ranks remain, then again from the start when overloaded), --rank-by the
// order of the ranks over them.
std::vector<size_t> place_on_cores(const BindingOptions& options, int nranks,
                                   const NodeTopology& topology) {
  std::vector<size_t> all(topology.size());
  for (size_t c = 0; c < all.size(); ++c) all[c] = c;
  const std::vector<size_t> mapped = ordered(all, options.map, topology);
  std::vector<size_t> out;
  while (out.size() < size_t(nranks)) {
    std::vector<size_t> pass(
        mapped.begin(),
        mapped.begin() + long(std::min(mapped.size(), size_t(nranks) - out.size())));
    std::sort(pass.begin(), pass.end());
    for (size_t c : ordered(pass, options.rank, topology)) out.push_back(c);
  }
  return out;
}

}  // namespace

bool plan_binding(const BindingOptions& options, int nranks, const NodeTopology& topology,
                  const std::string& host, std::vector<RankBinding>* out, std::string* error) {
  const int ncores = int(topology.size());
  if (options.bind == Binding::kCore && !options.overload_allowed && nranks > ncores &&
      ncores > 0) {
    *error = "cannot bind " + std::to_string(nranks) + " ranks to cores on " + host + ": it has " +
             std::to_string(ncores) + " core" + (ncores == 1 ? "" : "s") +
             " (use --bind-to core:overload-allowed to share them, or --bind-to none)";
    return false;
  }
  out->assign(size_t(nranks), RankBinding{});
  const bool bind =
      ncores > 0 && (options.bind == Binding::kCore || options.bind == Binding::kPackage ||
                     (options.bind == Binding::kAuto && nranks <= ncores));
  if (!bind) return true;
  const std::vector<size_t> cores = place_on_cores(options, nranks, topology);
  for (size_t r = 0; r < cores.size(); ++r) {
    const CoreInfo& core = topology[cores[r]];
    RankBinding& b = (*out)[r];
    b.package = core.package;
    if (options.bind != Binding::kPackage) {
      b.core = core.core;
      b.pus = core.pus;
      continue;
    }
    for (const CoreInfo& other : topology)
      if (other.package == core.package)
        b.pus.insert(b.pus.end(), other.pus.begin(), other.pus.end());
    std::sort(b.pus.begin(), b.pus.end());
  }
  return true;
}

std::string describe_binding(const RankBinding& binding) {
  if (binding.pus.empty()) return "nothing";
  std::string text = "package " + std::to_string(binding.package);
  if (binding.core >= 0) text += " core " + std::to_string(binding.core);
  // PUs as the kernel writes a CPU list (Cpus_allowed_list): runs of two or more as "a-b".
  text += " (PU" + std::string(binding.pus.size() == 1 ? " " : "s ");
  const std::vector<int>& pus = binding.pus;
  for (size_t i = 0; i < pus.size();) {
    size_t j = i;
    while (j + 1 < pus.size() && pus[j + 1] == pus[j] + 1) ++j;
    if (i > 0) text += ",";
    text += std::to_string(pus[i]);
    if (j > i) text += "-" + std::to_string(pus[j]);
    i = j + 1;
  }
  return text + ")";
}

}  // namespace weft::launcher
