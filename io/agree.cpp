// Agreement on results and arguments across a file's communicator.
#include "io/agree.hpp"

namespace weft::io {

Status agree(MPI_Comm comm, Status local) {
  int worst = local.error_class;
  if (PMPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
    return Status::error(MPI_ERR_OTHER, "could not agree on the result with the other ranks");
  if (!local.ok() || worst == 0) return local;
  return Status::error(worst, "the call failed on another rank of the file's communicator");
}

Status check_same(MPI_Comm comm, long long value, const std::string& what) {
  long long range[2] = {value, -value};
  if (PMPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_LONG_LONG, MPI_MAX, comm) != MPI_SUCCESS)
    return Status::error(MPI_ERR_OTHER, "could not compare " + what + " with the other ranks");
  if (range[0] == -range[1]) return Status::success();
  return Status::error(MPI_ERR_NOT_SAME, what + " differs between the ranks of the communicator");
}

}  // namespace weft::io
