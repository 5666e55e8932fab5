// Reading this node's packages, cores and PUs with hwloc (hwloc_topology_load), in the process
// that starts the node's ranks, so the plan follows the machine the ranks run on.
#include "launcher/node_topology.hpp"

#include <hwloc.h>

namespace weft::launcher {

NodeTopology node_topology() {
  NodeTopology out;
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return out;
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    return out;
  }
  // The allowed cpuset (cgroups) and this process's own binding together.
  hwloc_bitmap_t usable = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topology));
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topology, bound, HWLOC_CPUBIND_PROCESS) == 0)
    hwloc_bitmap_and(usable, usable, bound);
  // A machine hwloc shows no cores on has its PUs taken as cores.
  const hwloc_obj_type_t unit =
      hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  hwloc_bitmap_t pus = hwloc_bitmap_alloc();
  for (hwloc_obj_t core = hwloc_get_next_obj_by_type(topology, unit, nullptr); core != nullptr;
       core = hwloc_get_next_obj_by_type(topology, unit, core)) {
    hwloc_bitmap_and(pus, core->cpuset, usable);
    if (hwloc_bitmap_iszero(pus)) continue;
    const hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_PACKAGE, core);
    CoreInfo info;
    info.package = package != nullptr ? int(package->logical_index) : 0;
    info.core = int(core->logical_index);
    for (int pu = hwloc_bitmap_first(pus); pu >= 0; pu = hwloc_bitmap_next(pus, pu))
      info.pus.push_back(pu);
    out.push_back(std::move(info));
  }
  hwloc_bitmap_free(pus);
  hwloc_bitmap_free(bound);
  hwloc_bitmap_free(usable);
  hwloc_topology_destroy(topology);
  return out;
}

}  // namespace weft::launcher
