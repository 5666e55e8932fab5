// The short path of standard sends: a plain message to a peer the transport can hand it to at
// once (on this node: eager, room in the ring, nothing queued to that peer) is written there
// directly, without a completion or a wait (and, when blocking, without a request).
#pragma once
#include "mpi.h"

namespace weft::pt2pt {

// Sends count × type from buf to `dest` of `comm` with `tag` if the call qualifies: a live
// communicator, a valid dest (not MPI_PROC_NULL) and tag, a predefined type with its elements
// back to back, a host buffer, and a transport that takes the message at once. Returns whether
// it sent; if not, nothing happened and the general path takes the call (and reports any error).
bool short_send(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm);

}  // namespace weft::pt2pt
