// The short paths of point-to-point calls. A standard send of a plain message to a peer the
// transport can hand it to at once (on this node: eager, room in the ring, nothing queued to that
// peer) is written there directly, without a completion or a wait (and, when blocking, without a
// request). A blocking receive of a plain message waits on a completion of its own, without a
// request, its staging or its checks' messages.
#pragma once
#include "mpi.h"
#include "pt2pt/transport.hpp"

namespace weft::pt2pt {

// Sends count × type from buf to `dest` of `comm` with `tag` if the call qualifies: a live
// communicator, a valid dest (not MPI_PROC_NULL) and tag, a predefined type with its elements
// back to back, a host buffer, and a transport that takes the message at once. Returns whether
// it sent; if not, nothing happened and the general path takes the call (and reports any error).
bool short_send(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm);

// Receives count × type into buf from `source` (a rank or MPI_ANY_SOURCE) of `comm` with `tag`
// (or MPI_ANY_TAG) if the call qualifies as for short_send; returns whether it did, and then *c
// is its completion (what the status and the outcome, truncation included, are made from). If
// not, nothing happened and the general path takes the call.
bool short_recv(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                Completion* c);

}  // namespace weft::pt2pt
