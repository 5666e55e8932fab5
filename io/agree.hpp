// Agreement among the ranks of a file's communicator: collective I/O calls fail on every rank
// or on none, and collective arguments must be the same everywhere.
#pragma once
#include <string>

#include "mpi.h"
#include "runtime/status.hpp"

namespace weft::io {

// Every rank passes its own result; a rank whose call succeeded gets the error of a rank whose
// call failed (the largest class), "on another rank", so that all return the same class.
Status agree(MPI_Comm comm, Status local);
// MPI_ERR_NOT_SAME naming `what` unless every rank passed the same `value`.
Status check_same(MPI_Comm comm, long long value, const std::string& what);

}  // namespace weft::io
