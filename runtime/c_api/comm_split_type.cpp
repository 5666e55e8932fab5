// MPI_Comm_split_type (MPI 4.1 §7.4.2): by node, by hardware resource ("mpi_hw_resource_type":
// "mpi_shared_memory" or an hwloc URI that MPI_Get_hw_resource_info lists), by the largest
// hardware level that divides the group, or by process set ("mpi_pset_name"). A guided split
// whose info names nothing Weft knows gives MPI_COMM_NULL, as the standard asks; so does
// MPI_COMM_TYPE_HW_UNGUIDED where no level divides the group.
#include <string>

#include "runtime/c_api/guard.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/comm/split_type.hpp"
#include "runtime/session/session.hpp"

using weft::Comm;
using weft::Status;
namespace capi = weft::capi;

namespace {

bool valid_split_type(int split_type) {
  return split_type == MPI_COMM_TYPE_SHARED || split_type == MPI_COMM_TYPE_HW_UNGUIDED ||
         split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_RESOURCE_GUIDED ||
         split_type == MPI_UNDEFINED;
}

// What the call asks for: the split type and the keys of `info` (MPI_INFO_NULL: none) that the
// guided types read.
Status read_split(int split_type, MPI_Info info, weft::SplitBy* by) {
  if (!valid_split_type(split_type)) {
    return Status::error(MPI_ERR_ARG, "invalid split_type=" + std::to_string(split_type) +
                                          " (MPI_COMM_TYPE_SHARED, _HW_UNGUIDED, _HW_GUIDED, "
                                          "_RESOURCE_GUIDED or MPI_UNDEFINED)");
  }
  by->split_type = split_type;
  if (info == MPI_INFO_NULL) return Status::success();
  const weft::InfoEntries* entries = nullptr;
  WEFT_TRY(weft::infos().entries(info, "info", &entries));
  const bool guided =
      split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_RESOURCE_GUIDED;
  for (const auto& [key, value] : *entries) {
    if (guided && key == "mpi_hw_resource_type") by->resource_type = value;
    if (split_type == MPI_COMM_TYPE_RESOURCE_GUIDED && key == "mpi_pset_name") {
      by->by_pset = true;
      by->pset_name = value;
      if (!weft::pset_members(value, "mpi_pset_name", &by->pset).ok()) by->pset.clear();
    }
  }
  return Status::success();
}

}  // namespace

extern "C" {

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Comm_split_type";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  weft::SplitBy by;
  WEFT_CHECK(comm, fn, read_split(split_type, info, &by));
  std::string chosen;
  WEFT_CHECK(comm, fn, weft::comm_split_type(*c, by, key, newcomm, &chosen));
  // MPI_COMM_TYPE_HW_UNGUIDED tells which resource type the new communicator stands for in the
  // info given; a read-only one (MPI_INFO_ENV) is left as it is.
  if (split_type == MPI_COMM_TYPE_HW_UNGUIDED && info != MPI_INFO_NULL && !chosen.empty())
    (void)weft::infos().set(info, "mpi_hw_resource_type", chosen);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Comm_split_type)
