// The arguments MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups share: the
// string tag, the info hints and the error handler the new communicator gets.
#pragma once
#include "mpi.h"
#include "runtime/status.hpp"

namespace weft::capi {

// Not NULL and shorter than MPI_MAX_STRINGTAG_LEN.
Status check_stringtag(const char* stringtag);
// MPI_INFO_NULL or a live info object (hints are accepted; none is read).
Status check_hints(MPI_Info info);
// The handler the new communicator gets (MPI_ERRHANDLER_NULL: MPI_ERRORS_ARE_FATAL), checked.
Status new_comm_errhandler(MPI_Errhandler errhandler, MPI_Errhandler* out);

}  // namespace weft::capi
