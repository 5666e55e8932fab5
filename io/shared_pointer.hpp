// The shared file pointer of a file: one MPI_Offset (in etypes of the view) held by rank 0 of
// the file's communicator in a one-sided window the file owns, and moved with MPI_Fetch_and_op
// (then MPI_Win_flush) in a passive-target epoch every rank holds from create to destroy
// (MPI_Win_lock_all), so any rank advances it without the others taking part, and the
// application's thread and the file's collective thread (an ordered split collective) may both
// move it at once.
#pragma once
#include "mpi.h"
#include "runtime/status.hpp"

namespace weft::io {

class SharedPointer {
 public:
  // Collective over `comm`: makes the window, with the pointer at `initial`.
  Status create(MPI_Comm comm, MPI_Offset initial);
  // Collective: frees the window.
  void destroy();

  // Adds `delta` and returns the value before (atomically across the ranks).
  Status fetch_add(MPI_Offset delta, MPI_Offset* before);
  // Sets the value (one rank only; the collective callers order it with barriers).
  Status store(MPI_Offset value);

 private:
  Status fetch_op(MPI_Offset operand, MPI_Op op, MPI_Offset* before);
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace weft::io
