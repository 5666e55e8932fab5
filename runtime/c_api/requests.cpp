// Request completion chapter: Wait/Test and their all/any/some forms, free, cancel.
#include <string>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/request_status.hpp"
#include "runtime/generalized_request.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// How errors name request `index` of MPI_Startall, or MPI_Start's one request (index -1).
std::string request_arg(int index) {
  return index < 0 ? "request" : "array_of_requests[" + std::to_string(index) + "]";
}

// MPI_Start's work on one request: it must be persistent and inactive. A collective restarts its
// Activity, a point-to-point request its PersistentPlan; one that fails to start stays inactive.
Status start_persistent(MPI_Request r, int index) {
  if (r == MPI_REQUEST_NULL || !r->persistent) {
    return Status::error(MPI_ERR_REQUEST, "invalid request " + request_arg(index) + "=" +
                                              (r == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL"
                                                                     : "a nonpersistent request"));
  }
  if (r->active) {
    return Status::error(MPI_ERR_REQUEST, "request " + request_arg(index) +
                                              " is already active (complete it before starting "
                                              "it again)");
  }
  r->completion = weft::Completion{};
  r->active = true;
  Status s = r->kind == WeftRequestKind::kActivity ? r->activity->restart() : r->plan->start(r);
  if (!s.ok()) {
    r->active = false;
    r->completion.done = true;
  }
  return s;
}

// Where an error about request `r` is raised.
MPI_Comm comm_of(MPI_Request r) { return r == MPI_REQUEST_NULL ? MPI_COMM_WORLD : r->comm; }

}  // namespace

extern "C" {

int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
  constexpr const char* fn = "MPI_Wait";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(request, "request"));
  if (*request == MPI_REQUEST_NULL) {
    capi::empty_status(status);
    return MPI_SUCCESS;
  }
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_stream_ordered(*request, "request"));
  MPI_Request r = *request;
  world().progress.wait_until([r] { return r->completion.done; });
  const capi::ErrorOwner owner = capi::owner_of(*r);
  return capi::report_to(owner, fn, capi::finish_request(request, status));
}

int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  constexpr const char* fn = "MPI_Test";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(request, "request"));
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(flag, "flag"));
  if (*request == MPI_REQUEST_NULL) {
    *flag = 1;
    capi::empty_status(status);
    return MPI_SUCCESS;
  }
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_stream_ordered(*request, "request"));
  if (!(*request)->completion.done) world().progress.poll();
  *flag = (*request)->completion.done;
  if (!*flag) return MPI_SUCCESS;
  const capi::ErrorOwner owner = capi::owner_of(**request);
  return capi::report_to(owner, fn, capi::finish_request(request, status));
}

int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  constexpr const char* fn = "MPI_Waitall";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_requests(count, requests));
  std::vector<int> active;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) {
      capi::empty_status(capi::status_at(statuses, i));
      continue;
    }
    MPI_Request r = requests[i];
    world().progress.wait_until([r] { return r->completion.done; });
    active.push_back(i);
  }
  return capi::report_several(fn, requests, active.data(), int(active.size()), statuses, true,
                              capi::Completing::kFinish);
}

int PMPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  constexpr const char* fn = "MPI_Testall";
  WEFT_REQUIRE_RUNNING(fn);
  return capi::test_all(fn, count, requests, flag, statuses, capi::Completing::kFinish);
}

int PMPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  constexpr const char* fn = "MPI_Waitany";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_requests(count, requests));
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(index, "index"));
  bool any_active = false;
  for (int i = 0; i < count; ++i) any_active |= capi::is_active(requests[i]);
  if (!any_active) {
    *index = MPI_UNDEFINED;
    capi::empty_status(status);
    return MPI_SUCCESS;
  }
  int found = -1;
  world().progress.wait_until([&] {
    for (int i = 0; i < count; ++i) {
      if (capi::is_done(requests[i])) {
        found = i;
        return true;
      }
    }
    return false;
  });
  *index = found;
  const capi::ErrorOwner owner = capi::owner_of(*requests[found]);
  return capi::report_to(owner, fn, capi::finish_request(&requests[found], status));
}

int PMPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  constexpr const char* fn = "MPI_Testany";
  WEFT_REQUIRE_RUNNING(fn);
  return capi::test_any(fn, count, requests, index, flag, status, capi::Completing::kFinish);
}

int PMPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  constexpr const char* fn = "MPI_Waitsome";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_requests(incount, requests));
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(outcount, "outcount"));
  bool any_active = false;
  for (int i = 0; i < incount; ++i) any_active |= capi::is_active(requests[i]);
  if (!any_active) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  world().progress.wait_until([&] {
    for (int i = 0; i < incount; ++i)
      if (capi::is_done(requests[i])) return true;
    return false;
  });
  int n = 0;
  for (int i = 0; i < incount; ++i)
    if (capi::is_done(requests[i])) indices[n++] = i;
  *outcount = n;
  return capi::report_several(fn, requests, indices, n, statuses, false, capi::Completing::kFinish);
}

int PMPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                  MPI_Status statuses[]) {
  constexpr const char* fn = "MPI_Testsome";
  WEFT_REQUIRE_RUNNING(fn);
  return capi::test_some(fn, incount, requests, outcount, indices, statuses,
                         capi::Completing::kFinish);
}

int PMPI_Request_free(MPI_Request* request) {
  constexpr const char* fn = "MPI_Request_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(request, "request"));
  if (*request == MPI_REQUEST_NULL) {
    return capi::report(MPI_COMM_WORLD, fn,
                        Status::error(MPI_ERR_REQUEST, "invalid request=MPI_REQUEST_NULL"));
  }
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_stream_ordered(*request, "request"));
  if ((*request)->kind == WeftRequestKind::kGeneralized) {
    MPI_Request r = *request;
    *request = MPI_REQUEST_NULL;
    return capi::report(MPI_COMM_SELF, fn, weft::generalized::drop(r));
  }
  if ((*request)->completion.done) {  // complete, or an inactive persistent request
    world().requests.release(*request);
  } else {
    world().requests.adopt_orphan(*request);
  }
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int PMPI_Cancel(MPI_Request* request) {
  constexpr const char* fn = "MPI_Cancel";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(request, "request"));
  if (*request == MPI_REQUEST_NULL) {
    return capi::report(MPI_COMM_WORLD, fn,
                        Status::error(MPI_ERR_REQUEST, "invalid request=MPI_REQUEST_NULL"));
  }
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_stream_ordered(*request, "request"));
  // Receives can be cancelled, and sends whose transport can withdraw them (to ranks of this
  // node, before they are matched, pt2pt/shm/); other sends complete normally (their status
  // says so), and so does an MPI_Isendrecv, whose send may already have been matched.
  MPI_Request r = *request;
  if (r->kind == WeftRequestKind::kGeneralized) {
    return capi::report(r->comm, fn, weft::generalized::cancel(*r));
  }
  if (r->kind == WeftRequestKind::kActivity && r->activity->received() != nullptr) {
    return MPI_SUCCESS;
  }
  if (r->kind == WeftRequestKind::kActivity) {
    return capi::report(r->comm, fn,
                        Status::error(MPI_ERR_REQUEST, "a collective operation (or a buffer "
                                                      "flush) cannot be cancelled"));
  }
  const bool point_to_point = r->kind == WeftRequestKind::kRecv || r->kind == WeftRequestKind::kSend;
  if (point_to_point && !r->completion.done) world().transport->cancel(&r->completion);
  return MPI_SUCCESS;
}

int PMPI_Start(MPI_Request* request) {
  constexpr const char* fn = "MPI_Start";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(request, "request"));
  return capi::report(comm_of(*request), fn, start_persistent(*request, -1));
}

int PMPI_Startall(int count, MPI_Request requests[]) {
  constexpr const char* fn = "MPI_Startall";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_requests(count, requests));
  for (int i = 0; i < count; ++i)
    WEFT_CHECK(comm_of(requests[i]), fn, start_persistent(requests[i], i));
  return MPI_SUCCESS;
}

int PMPI_Test_cancelled(const MPI_Status* status, int* flag) {
  constexpr const char* fn = "MPI_Test_cancelled";
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(status, "status"));
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(flag, "flag"));
  *flag = status->weft_cancelled;
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Wait)
WEFT_MPI_ALIAS(MPI_Test)
WEFT_MPI_ALIAS(MPI_Waitall)
WEFT_MPI_ALIAS(MPI_Testall)
WEFT_MPI_ALIAS(MPI_Waitany)
WEFT_MPI_ALIAS(MPI_Testany)
WEFT_MPI_ALIAS(MPI_Waitsome)
WEFT_MPI_ALIAS(MPI_Testsome)
WEFT_MPI_ALIAS(MPI_Request_free)
WEFT_MPI_ALIAS(MPI_Cancel)
WEFT_MPI_ALIAS(MPI_Start)
WEFT_MPI_ALIAS(MPI_Startall)
WEFT_MPI_ALIAS(MPI_Test_cancelled)
