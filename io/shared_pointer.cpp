// The shared file pointer on a one-sided window.
#include "io/shared_pointer.hpp"

namespace weft::io {

Status SharedPointer::create(MPI_Comm comm, MPI_Offset initial) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  MPI_Offset* base = nullptr;
  const MPI_Aint bytes = rank == 0 ? MPI_Aint(sizeof(MPI_Offset)) : 0;
  if (PMPI_Win_allocate(bytes, sizeof(MPI_Offset), MPI_INFO_NULL, comm, &base, &win_) !=
      MPI_SUCCESS)
    return Status::error(MPI_ERR_OTHER, "could not make the window of the shared file pointer");
  PMPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN);
  if (rank == 0) {
    PMPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win_);
    *base = initial;
    PMPI_Win_unlock(0, win_);
  }
  PMPI_Barrier(comm);
  PMPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  return Status::success();
}

void SharedPointer::destroy() {
  if (win_ == MPI_WIN_NULL) return;
  PMPI_Win_unlock_all(win_);
  PMPI_Win_free(&win_);
}

Status SharedPointer::fetch_op(MPI_Offset operand, MPI_Op op, MPI_Offset* before) {
  int rc = PMPI_Fetch_and_op(&operand, before, MPI_LONG_LONG, 0, 0, op, win_);
  if (rc == MPI_SUCCESS) rc = PMPI_Win_flush(0, win_);
  if (rc != MPI_SUCCESS)
    return Status::error(MPI_ERR_OTHER, "could not reach the shared file pointer");
  return Status::success();
}

Status SharedPointer::fetch_add(MPI_Offset delta, MPI_Offset* before) {
  return fetch_op(delta, MPI_SUM, before);
}

Status SharedPointer::store(MPI_Offset value) {
  MPI_Offset before = 0;
  return fetch_op(value, MPI_REPLACE, &before);
}

}  // namespace weft::io
