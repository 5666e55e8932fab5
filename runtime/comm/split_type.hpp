// MPI_Comm_split_type (MPI 4.1 §7.4.2): the ranks that share a place get one communicator, a rank
// without one gets MPI_COMM_NULL. A place is the node (MPI_COMM_TYPE_SHARED, or the guided types
// with "mpi_shared_memory"), one instance of a hardware resource type (the guided types with a
// type of runtime/hardware.hpp), or a process set (MPI_COMM_TYPE_RESOURCE_GUIDED with
// "mpi_pset_name"); MPI_COMM_TYPE_HW_UNGUIDED finds the largest level whose places divide the
// group.
#pragma once
#include <string>

#include "runtime/comm/comm.hpp"
#include "runtime/comm/group_ops.hpp"

namespace weft {

// The "mpi_hw_resource_type" value that names the node's shared memory (MPI 4.1 §7.4.2).
inline constexpr const char* kSharedMemory = "mpi_shared_memory";

// What MPI_Comm_split_type was asked for, the info keys read.
struct SplitBy {
  int split_type = MPI_UNDEFINED;  // an MPI_COMM_TYPE_* or MPI_UNDEFINED
  std::string resource_type;       // "mpi_hw_resource_type"; "" when not given
  bool by_pset = false;            // "mpi_pset_name" given (MPI_COMM_TYPE_RESOURCE_GUIDED)
  std::string pset_name;
  groups::Members pset;  // the world ranks of that set as this process sees it; none if unknown
};

// Collective over `parent` (an intracommunicator); ranks of one place are ordered by key, then
// rank. A guided split by a type this node does not know (or no type) gives MPI_COMM_NULL.
// *chosen: the resource type the new communicator stands for ("" with MPI_COMM_NULL), which
// MPI_COMM_TYPE_HW_UNGUIDED reports back as "mpi_hw_resource_type".
Status comm_split_type(Comm& parent, const SplitBy& by, int key, MPI_Comm* out,
                       std::string* chosen);
// The communicators of the nodes (MPI_COMM_TYPE_SHARED), for the library's own use.
Status comm_split_node(Comm& parent, int key, MPI_Comm* out);

}  // namespace weft
