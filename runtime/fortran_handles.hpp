// Integer (MPI_Fint) stand-ins for the pointer handles, requests and messages, for MPI_*_c2f/f2c.
// Integer handles (communicators, datatypes, groups, ops, infos, error handlers) convert as the
// same number and need nothing here. A pointer handle gets a small positive integer the first
// time it is converted, the same one on every later conversion, until the object goes away:
// RequestPool::release and start_mrecv forget it, so a stale integer converts to the null handle.
#pragma once
#include "mpi.h"

namespace weft::fhandles {

// 0 for MPI_REQUEST_NULL; otherwise the request's integer (assigned on first use).
MPI_Fint request_c2f(MPI_Request request);
// MPI_REQUEST_NULL for 0 and for an integer that names no live converted request.
MPI_Request request_f2c(MPI_Fint handle);
// Called when a request goes back to the pool (only for requests that were converted).
void forget_request(MPI_Request request);

// 0 for MPI_MESSAGE_NULL, 1 for MPI_MESSAGE_NO_PROC; otherwise the message's integer.
MPI_Fint message_c2f(MPI_Message message);
MPI_Message message_f2c(MPI_Fint handle);
// Called when a message is received (consumed); harmless for one never converted.
void forget_message(MPI_Message message);

}  // namespace weft::fhandles
