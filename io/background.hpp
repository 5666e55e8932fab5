// Independent nonblocking reads and writes that run while the caller goes on: one I/O thread
// per process moves the bytes and completes a generalized request (MPI_Grequest_complete, which
// may be called from any thread), so MPI_Test says false while the transfer is in flight.
#pragma once
#include "io/posix_io.hpp"
#include "io/transfer.hpp"
#include "mpi.h"

namespace weft::io {

// Hands the staged access `s` on f's file to the I/O thread; *request completes when it is
// done, its status holding the memory bytes moved and its error, if any, the error class.
Status start_background(const File& f, Staged s, MPI_Request* request);

// Waits until no background transfer on descriptor `fd` is queued or running (before close).
void drain_background(int fd);

}  // namespace weft::io
