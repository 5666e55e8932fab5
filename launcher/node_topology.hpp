// The topology of the node a launcher runs on, read with hwloc, as the plain description the
// binding plan works on (launcher/binding.hpp).
#pragma once
#include "launcher/binding.hpp"

namespace weft::launcher {

// This node's cores with their packages and PUs, limited to what this process may run on (the
// cgroup's cpuset and its own affinity, e.g. from taskset). Empty when hwloc cannot read it.
NodeTopology node_topology();

}  // namespace weft::launcher
