// MPI point-to-point semantics over any Transport: context ids, communicator ranks in the match
// bits, wildcards, synchronous mode, MPI_PROC_NULL, probe. Arguments are already validated.
#pragma once
#include <cstddef>

#include "mpi.h"
#include "runtime/comm.hpp"
#include "runtime/request.hpp"

namespace weft::pt2pt {

enum class SendMode { kStandard, kSynchronous, kReady };

// `internal` selects the communicator's collective context (traffic users never match).
Status start_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag,
                  SendMode mode, Request* r, bool internal = false);
Status start_recv(const Comm& comm, void* buf, size_t bytes, int source, int tag, Request* r,
                  bool internal = false);
// Blocking or not; `*flag` tells whether a message was found (always true when blocking).
Status probe(const Comm& comm, int source, int tag, bool blocking, int* flag, MPI_Status* status);
// Blocks until the request completes.
void wait(Request* r);

}  // namespace weft::pt2pt
