// Generalized requests (MPI 4.1 §13.2): MPI_Grequest_start and MPI_Grequest_complete. The Wait
// and Test families, MPI_Request_get_status, MPI_Request_free and MPI_Cancel call the callbacks
// (runtime/generalized_request.hpp). Errors concern no communicator: raised on MPI_COMM_SELF.
#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/request_status.hpp"
#include "runtime/generalized_request.hpp"

using weft::Status;
namespace capi = weft::capi;

namespace {

Status check_callbacks(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, MPI_Request* request) {
  WEFT_TRY(capi::check_not_null(reinterpret_cast<const void*>(query_fn), "query_fn"));
  WEFT_TRY(capi::check_not_null(reinterpret_cast<const void*>(free_fn), "free_fn"));
  WEFT_TRY(capi::check_not_null(reinterpret_cast<const void*>(cancel_fn), "cancel_fn"));
  return capi::check_not_null(request, "request");
}

// MPI_Grequest_complete's argument: a generalized request not completed yet.
Status check_completable(MPI_Request request) {
  if (request == MPI_REQUEST_NULL) {
    return Status::error(MPI_ERR_REQUEST, "invalid request=MPI_REQUEST_NULL");
  }
  if (request->kind != WeftRequestKind::kGeneralized) {
    return Status::error(MPI_ERR_REQUEST,
                         "invalid request: not a generalized request (from MPI_Grequest_start)");
  }
  if (request->completion.done) {
    return Status::error(MPI_ERR_REQUEST, "the generalized request is complete already");
  }
  return Status::success();
}

}  // namespace

extern "C" {

int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                        MPI_Grequest_cancel_function* cancel_fn, void* extra_state,
                        MPI_Request* request) {
  constexpr const char* fn = "MPI_Grequest_start";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_SELF, fn, check_callbacks(query_fn, free_fn, cancel_fn, request));
  return capi::start_pooled(MPI_COMM_SELF, fn, request, [&](weft::Request* r) {
    weft::generalized::start(r, {query_fn, free_fn, cancel_fn, extra_state});
    return Status::success();
  });
}

// May be called from another thread while this one waits on the request (MPI 4.1 §13.2's use).
int PMPI_Grequest_complete(MPI_Request request) {
  constexpr const char* fn = "MPI_Grequest_complete";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_SELF, fn, check_completable(request));
  return capi::report(MPI_COMM_SELF, fn, weft::generalized::complete(request));
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Grequest_start)
WEFT_MPI_ALIAS(MPI_Grequest_complete)
