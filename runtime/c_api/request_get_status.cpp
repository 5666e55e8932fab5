// Request completion chapter, looking without completing: MPI_Request_get_status and MPI 4.1's
// _any, _all and _some forms (§3.7.6). Like MPI_Test and its array forms (request_status.hpp has
// the one loop of each), but every request stays as it is (not freed, a persistent one still
// active), to be completed later by Wait/Test/Free.
#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/request_status.hpp"

using weft::world;
namespace capi = weft::capi;

extern "C" {

int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  constexpr const char* fn = "MPI_Request_get_status";
  WEFT_REQUIRE_RUNNING(fn);
  const MPI_Comm comm = request != MPI_REQUEST_NULL ? request->comm : MPI_COMM_SELF;
  WEFT_CHECK(comm, fn, capi::check_not_null(flag, "flag"));
  if (!capi::is_active(request)) {
    *flag = 1;
    capi::empty_status(status);
    return MPI_SUCCESS;
  }
  if (!request->completion.done) world().progress.poll();
  *flag = request->completion.done;
  if (!*flag) return MPI_SUCCESS;
  return capi::report_to(capi::owner_of(*request), fn, capi::completed_status(request, status));
}

int PMPI_Request_get_status_any(int count, MPI_Request requests[], int* index, int* flag,
                                MPI_Status* status) {
  constexpr const char* fn = "MPI_Request_get_status_any";
  WEFT_REQUIRE_RUNNING(fn);
  return capi::test_any(fn, count, requests, index, flag, status, capi::Completing::kLeave);
}

int PMPI_Request_get_status_all(int count, MPI_Request requests[], int* flag,
                                MPI_Status statuses[]) {
  constexpr const char* fn = "MPI_Request_get_status_all";
  WEFT_REQUIRE_RUNNING(fn);
  return capi::test_all(fn, count, requests, flag, statuses, capi::Completing::kLeave);
}

int PMPI_Request_get_status_some(int incount, MPI_Request requests[], int* outcount, int indices[],
                                 MPI_Status statuses[]) {
  constexpr const char* fn = "MPI_Request_get_status_some";
  WEFT_REQUIRE_RUNNING(fn);
  return capi::test_some(fn, incount, requests, outcount, indices, statuses,
                         capi::Completing::kLeave);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Request_get_status)
WEFT_MPI_ALIAS(MPI_Request_get_status_any)
WEFT_MPI_ALIAS(MPI_Request_get_status_all)
WEFT_MPI_ALIAS(MPI_Request_get_status_some)
