// MPI point-to-point semantics over any Transport: context ids, communicator ranks in the match
// bits, wildcards, synchronous mode, MPI_PROC_NULL, probe. Arguments are already validated.
#pragma once
#include <cstddef>

#include "mpi.h"
#include "runtime/comm.hpp"
#include "runtime/request.hpp"

namespace weft::pt2pt {

enum class SendMode { kStandard, kSynchronous, kReady };

Status start_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag,
                  SendMode mode, Request* r);
Status start_recv(const Comm& comm, void* buf, size_t bytes, int source, int tag, Request* r);
// Collective traffic: on the communicator's collective context, which user receives never
// match; `dest`/`source` are ranks of `comm` (no wildcards, no MPI_PROC_NULL).
Status start_coll_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag,
                       Completion* c);
Status start_coll_recv(const Comm& comm, void* buf, size_t bytes, int source, int tag,
                       Completion* c);
// Blocking or not; `*flag` tells whether a message was found (always true when blocking).
Status probe(const Comm& comm, int source, int tag, bool blocking, int* flag, MPI_Status* status);
// Blocks until the request completes.
void wait(Request* r);

}  // namespace weft::pt2pt
