// Persistent point-to-point requests (MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init,
// MPI_Bsend_init, MPI_Recv_init): the operation's arguments kept in the request as its
// PersistentPlan, and each MPI_Start's round started from them through the typed path.
#pragma once
#include <cstddef>

#include "pt2pt/pt2pt.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::pt2pt {

// Makes the pooled request `r` an inactive persistent send of count × type at `buf`.
void init_persistent_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                          int dest, int tag, SendMode mode, Request* r);
// Makes `r` an inactive persistent receive.
void init_persistent_recv(const Comm& comm, void* buf, size_t count, const Datatype& type,
                          int source, int tag, Request* r);

}  // namespace weft::pt2pt
