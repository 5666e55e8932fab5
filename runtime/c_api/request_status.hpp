// Turning a completed request into what MPI reports: its error (as a Status with a message)
// and the release of a pooled request, for one request or several (the Wait/Test and
// MPI_Request_get_status families); starting a call on a pooled request.
#pragma once
#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/request.hpp"
#include "runtime/status.hpp"

namespace weft::capi {

// The error a completed request carries, e.g. truncation naming the sender and tag.
Status request_outcome(const Request& r);
// The same for the completion of a send or receive (request_outcome of one uses it).
Status completion_outcome(const Completion& c);

// What a complete request reports: a receive's data is put in its buffer, `status` filled (by
// the query callback for a generalized request) and the request's error returned (a file
// access's names the file and the call that started it). The request stays as it is
// (MPI_Request_get_status; finish_request then releases it).
Status completed_status(Request* r, MPI_Status* status);

// Completes the pooled request in *slot: fills `status`, returns its outcome, releases it and
// sets *slot to MPI_REQUEST_NULL. A persistent request instead becomes inactive (and an
// inactive one reports an empty status). A generalized request's free callback runs after its
// query callback; the first error of the two is returned.
Status finish_request(MPI_Request* slot, MPI_Status* status);

// The status of an inactive or null request (MPI's "empty" status).
void empty_status(MPI_Status* status);

// Where an error about a request is raised: a file access's request on its file (the file's
// error handler), any other on its communicator. Taken before the request is released.
struct ErrorOwner {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_File file = MPI_FILE_NULL;
};
inline ErrorOwner owner_of(const Request& r) { return {r.comm, r.file}; }
// report() or report_file() (runtime/c_api/file_args.hpp), as `owner` says.
int report_to(const ErrorOwner& owner, const char* fn, const Status& s);
// Null requests and inactive persistent ones take no part in the any/all/some forms.
inline bool is_active(MPI_Request r) {
  return r != MPI_REQUEST_NULL && (!r->persistent || r->active);
}
inline bool is_done(MPI_Request r) { return is_active(r) && r->completion.done; }

// The checks of an array form's count and array_of_requests.
Status check_requests(int count, const MPI_Request* requests);
// A request of MPIX_Isend/Irecv_enqueue (Request::stream_ordered), which only
// MPIX_Wait(all)_enqueue completes, refused by the other calls on requests (`arg` names it).
Status check_not_stream_ordered(MPI_Request r, const std::string& arg);

// array_of_statuses[i], or MPI_STATUS_IGNORE when the array is MPI_STATUSES_IGNORE.
inline MPI_Status* status_at(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// What to do with each complete request of an array form: complete it (Wait/Test: released, or
// made inactive) or leave it as it is (MPI_Request_get_status_*).
enum class Completing : bool { kFinish, kLeave };

// Reports the done requests at `indices` (n of them) into their statuses (at the request's index,
// or at k for the k-th), each status's MPI_ERROR holding that request's error. Returns
// MPI_ERR_IN_STATUS, raised on the first failing request's communicator, if any failed.
int report_several(const char* fn, MPI_Request* requests, const int* indices, int n,
                   MPI_Status* statuses, bool statuses_by_index, Completing completing);

// The array forms that look once, after one poll: MPI_Testany/all/some, which complete what is
// complete (kFinish), and MPI_Request_get_status_any/all/some, which leave it (kLeave). Null and
// inactive requests take no part: with none active, *flag is true, *index and *outcount
// MPI_UNDEFINED and the statuses empty. `fn` names the call in errors; the caller holds the call
// lock (WEFT_REQUIRE_RUNNING).
int test_any(const char* fn, int count, MPI_Request* requests, int* index, int* flag,
             MPI_Status* status, Completing completing);
int test_all(const char* fn, int count, MPI_Request* requests, int* flag, MPI_Status* statuses,
             Completing completing);
int test_some(const char* fn, int incount, MPI_Request* requests, int* outcount, int* indices,
              MPI_Status* statuses, Completing completing);

// Starts a nonblocking call on a pooled request: `start(r)` begins it; on success *request is
// r, otherwise r goes back to the pool and the error is raised on `comm` from `fn`.
template <typename Start>
int start_pooled(MPI_Comm comm, const char* fn, MPI_Request* request, Start start) {
  Request* r = world().requests.acquire();
  if (Status s = start(r); !s.ok()) {
    world().requests.release(r);
    return report(comm, fn, s);
  }
  *request = r;
  return MPI_SUCCESS;
}

}  // namespace weft::capi
