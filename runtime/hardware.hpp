// What hwloc says about the hardware this process runs on, for MPI_Get_hw_resource_info and the
// hardware-guided forms of MPI_Comm_split_type (MPI 4.1 §9.1.2, §7.4.2): which resource types
// the node has, and which instance of each the process is restricted to by its CPU binding.
#pragma once
#include <string>
#include <vector>

namespace weft::hardware {

// The resource types Weft names, largest first, as URIs ("hwloc://Machine", "hwloc://Package",
// "hwloc://NUMANode", "hwloc://L3Cache", "hwloc://L2Cache", "hwloc://L1Cache", "hwloc://Core",
// "hwloc://PU"), whether or not this node has them.
const std::vector<std::string>& known_types();
// The ones this node has (at least one object of the type); empty when hwloc cannot read the
// topology.
std::vector<std::string> present_types();
// The instance of resource type `type` this process is restricted to now: the logical index of
// the one object of that type whose CPU set holds the process's whole binding. -1 when the binding
// spans several, when `type` is not one of known_types() or the node has none, or when hwloc
// cannot tell.
int restricted_instance(const std::string& type);

}  // namespace weft::hardware
