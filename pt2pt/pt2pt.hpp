// MPI point-to-point semantics over any Transport: context ids, communicator ranks in the match
// bits, wildcards, synchronous mode, MPI_PROC_NULL, probe and matched probe. Arguments are
// already validated.
#pragma once
#include <cstddef>

#include "mpi.h"
#include "runtime/comm/comm.hpp"
#include "runtime/request.hpp"

// What MPI_Message points to: a message a matched probe took out of matching, until received.
struct weft_message {
  weft::ProbeResult taken;  // the transport's handle, the sender's match bits and the length
  MPI_Comm comm = MPI_COMM_NULL;
};

namespace weft::pt2pt {

// kBuffered: the message is copied into the attached buffer (pt2pt/buffered.hpp); such sends
// go through start_typed_send (pt2pt/typed.hpp), which does the copy.
enum class SendMode { kStandard, kSynchronous, kReady, kBuffered };

Status start_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag, SendMode mode,
                  Request* r);
Status start_recv(const Comm& comm, void* buf, size_t bytes, int source, int tag, Request* r);
// Collective traffic: on the communicator's collective context, which user receives never
// match; `dest`/`source` are ranks of `comm` (no wildcards, no MPI_PROC_NULL).
Status start_coll_send(const Comm& comm, const void* buf, size_t bytes, int dest, int tag,
                       Completion* c);
Status start_coll_recv(const Comm& comm, void* buf, size_t bytes, int source, int tag,
                       Completion* c);
// A send on match bits the caller computed (internal protocols such as pt2pt/partitioned/), to
// world rank `world_peer`, connecting to it first if needed.
Status send_bits(int world_peer, const void* buf, size_t bytes, uint64_t bits, bool sync,
                 Completion* c);
// Blocking or not; `*flag` tells whether a message was found (always true when blocking).
Status probe(const Comm& comm, int source, int tag, bool blocking, int* flag, MPI_Status* status);
// Matched probe: looks for a message like probe() and takes it out of matching, so that only a
// receive of *message (start_mrecv) gets it. *message is MPI_MESSAGE_NULL when none was found,
// MPI_MESSAGE_NO_PROC for source MPI_PROC_NULL.
Status mprobe(const Comm& comm, int source, int tag, bool blocking, int* flag, MPI_Message* message,
              MPI_Status* status);
// Starts receiving a message found by mprobe into `bytes` at `buf`, and consumes `message`.
Status start_mrecv(MPI_Message message, void* buf, size_t bytes, Request* r);
// Blocks until the request completes; a staged receive is then unpacked into its buffer.
void wait(Request* r);

}  // namespace weft::pt2pt
