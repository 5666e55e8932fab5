// Generalized requests (MPI_Grequest_start, MPI 4.1 §13.2): requests the application completes
// itself, with its query, free and cancel callbacks called where and when the standard says.
#pragma once
#include "mpi.h"
#include "runtime/request.hpp"
#include "runtime/status.hpp"

namespace weft::generalized {

// Makes the pooled request `r` an active generalized request with these callbacks.
void start(Request* r, const GeneralizedCallbacks& callbacks);
// query_fn into *status, or into a scratch status when it is MPI_STATUS_IGNORE (the callback
// always gets one); its error code as a Status. Called by every Wait/Test form and
// MPI_Request_get_status once the request is complete.
Status query(const Request& r, MPI_Status* status);
// free_fn: called once, after query_fn, by the call that completes the request.
Status free_state(const Request& r);
// MPI_Cancel: cancel_fn with complete = whether MPI_Grequest_complete was called already.
Status cancel(const Request& r);
// MPI_Grequest_complete: marks `r` complete, waking a wait blocked in another thread; a request
// the application freed already has its free_fn called and is released now.
Status complete(Request* r);
// MPI_Request_free: free_fn and release now if complete, otherwise at MPI_Grequest_complete.
Status drop(Request* r);

}  // namespace weft::generalized
