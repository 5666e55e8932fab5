// Nonblocking accesses that run while the caller goes on, each completing a generalized request
// (MPI_Grequest_complete) when done, so MPI_Test says false while it is in flight:
// independent ones on the process's I/O thread, collective ones (nonblocking collective and
// split calls) on the file's collective thread, in the order they were started, which is the
// same on every rank (runtime/threads/job_queue.hpp). A failure shows at completion: the request's query
// callback returns its class, and background_outcome gives its message.
#pragma once
#include "io/collective.hpp"
#include "io/transfer.hpp"
#include "mpi.h"

namespace weft::io {

// Hands the staged and placed independent access `s` on f, started by MPI function `fn`, to the
// I/O thread; *request completes when it is done, its status holding the memory bytes moved.
Status start_independent(const File& f, const char* fn, Staged s, MPI_Request* request);
// Queues the collective access `c` on f's collective thread (started on first use).
Status start_collective(File& f, const char* fn, CollectiveAccess c, MPI_Request* request);

// Returns once every collective access queued on f has run: every other collective call on f
// first waits for them, so that the ranks' collective calls on f's communicator keep one order.
Status finish_collectives(File& f);
// Returns once every independent background access queued so far has run (before a close).
Status finish_independent();

// The error of the finished background access whose generalized request has `extra_state`:
// its class, and a message naming the call that started it and the file.
Status background_outcome(void* extra_state);

}  // namespace weft::io
