// Request outcomes and release, generalized requests included, one request or several.
#include "runtime/c_api/request_status.hpp"

#include <string>
#include <vector>

#include "io/background.hpp"
#include "pt2pt/match_bits.hpp"
#include "runtime/c_api/file_args.hpp"
#include "runtime/errors.hpp"
#include "runtime/generalized_request.hpp"
#include "runtime/world.hpp"

namespace weft::capi {

Status request_outcome(const Request& r) {
  if (r.kind == WeftRequestKind::kActivity) return r.activity->outcome();
  return completion_outcome(r.completion);
}

Status completion_outcome(const Completion& c) {
  if (c.error_class == MPI_SUCCESS) return Status::success();
  if (c.error_class == MPI_ERR_TRUNCATE) {
    return Status::error(MPI_ERR_TRUNCATE,
                         "message truncated: the message from rank " +
                             std::to_string(match_bits::source_of(c.sender_bits)) + " with tag " +
                             std::to_string(match_bits::tag_of(c.sender_bits)) +
                             " is longer than the receive buffer of " + std::to_string(c.bytes) +
                             " bytes");
  }
  return Status::error(c.error_class, "communication failed in the transport");
}

Status completed_status(Request* r, MPI_Status* status) {
  if (r->kind == WeftRequestKind::kGeneralized) {
    Status s = generalized::query(*r, status);
    if (s.ok() || r->file == MPI_FILE_NULL) return s;
    return io::background_outcome(r->generalized->extra_state);
  }
  deliver_staged(r);
  fill_status(*r, status);
  return request_outcome(*r);
}

Status finish_request(MPI_Request* slot, MPI_Status* status) {
  Request* r = *slot;
  if (r->persistent) {  // stays allocated, inactive until the next MPI_Start
    if (!r->active) {
      empty_status(status);
      return Status::success();
    }
    r->active = false;
    return completed_status(r, status);
  }
  Status outcome = completed_status(r, status);
  if (r->kind == WeftRequestKind::kGeneralized) {
    Status freed = generalized::free_state(*r);
    if (outcome.ok()) outcome = freed;
  }
  world().requests.release(r);
  *slot = MPI_REQUEST_NULL;
  return outcome;
}

Status check_requests(int count, const MPI_Request* requests) {
  WEFT_TRY(check_count(count, "count"));
  if (count > 0) WEFT_TRY(check_not_null(requests, "array_of_requests"));
  for (int i = 0; i < count; ++i)
    WEFT_TRY(check_not_stream_ordered(requests[i], "array_of_requests[" + std::to_string(i) + "]"));
  return Status::success();
}

Status check_not_stream_ordered(MPI_Request r, const std::string& arg) {
  if (r == MPI_REQUEST_NULL || !r->stream_ordered) return Status::success();
  return Status::error(MPI_ERR_REQUEST,
                       "invalid " + arg +
                           ": a request of MPIX_Isend_enqueue or MPIX_Irecv_enqueue, completed "
                           "only by MPIX_Wait_enqueue or MPIX_Waitall_enqueue at its place in "
                           "the stream");
}

int report_several(const char* fn, MPI_Request* requests, const int* indices, int n,
                   MPI_Status* statuses, bool statuses_by_index, Completing completing) {
  ErrorOwner failed;
  std::string first_error;
  for (int k = 0; k < n; ++k) {
    const int i = indices[k];
    MPI_Status* st = status_at(statuses, statuses_by_index ? i : k);
    const ErrorOwner owner = owner_of(*requests[i]);
    Status s = completing == Completing::kFinish ? finish_request(&requests[i], st)
                                                 : completed_status(requests[i], st);
    if (st != MPI_STATUS_IGNORE) st->MPI_ERROR = make_error_code(s.error_class, s.message);
    if (!s.ok() && first_error.empty()) {
      failed = owner;
      first_error = "request " + std::to_string(i) + ": " + s.message;
    }
  }
  if (first_error.empty()) return MPI_SUCCESS;
  return report_to(failed, fn, Status::error(MPI_ERR_IN_STATUS, first_error));
}

namespace {
// Where an error about the array forms' arguments is raised.
constexpr MPI_Comm kArgumentErrors = MPI_COMM_WORLD;

// Completes or only reports request `*slot` into `status`.
Status report_one(MPI_Request* slot, MPI_Status* status, Completing completing) {
  return completing == Completing::kFinish ? finish_request(slot, status)
                                           : completed_status(*slot, status);
}
}  // namespace

int test_any(const char* fn, int count, MPI_Request* requests, int* index, int* flag,
             MPI_Status* status, Completing completing) {
  WEFT_CHECK(kArgumentErrors, fn, check_requests(count, requests));
  WEFT_CHECK(kArgumentErrors, fn, check_not_null(index, "index"));
  WEFT_CHECK(kArgumentErrors, fn, check_not_null(flag, "flag"));
  world().progress.poll();
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    any_active |= is_active(requests[i]);
    if (!is_done(requests[i])) continue;
    *index = i;
    *flag = 1;
    const ErrorOwner owner = owner_of(*requests[i]);
    return report_to(owner, fn, report_one(&requests[i], status, completing));
  }
  *index = MPI_UNDEFINED;
  *flag = any_active ? 0 : 1;
  if (!any_active) empty_status(status);
  return MPI_SUCCESS;
}

int test_all(const char* fn, int count, MPI_Request* requests, int* flag, MPI_Status* statuses,
             Completing completing) {
  WEFT_CHECK(kArgumentErrors, fn, check_requests(count, requests));
  WEFT_CHECK(kArgumentErrors, fn, check_not_null(flag, "flag"));
  world().progress.poll();
  std::vector<int> active;
  for (int i = 0; i < count; ++i) {
    if (!is_active(requests[i])) continue;
    if (!requests[i]->completion.done) {
      *flag = 0;
      return MPI_SUCCESS;
    }
    active.push_back(i);
  }
  *flag = 1;
  for (int i = 0; i < count; ++i)
    if (!is_active(requests[i])) empty_status(status_at(statuses, i));
  return report_several(fn, requests, active.data(), int(active.size()), statuses, true,
                        completing);
}

int test_some(const char* fn, int incount, MPI_Request* requests, int* outcount, int* indices,
              MPI_Status* statuses, Completing completing) {
  WEFT_CHECK(kArgumentErrors, fn, check_requests(incount, requests));
  WEFT_CHECK(kArgumentErrors, fn, check_not_null(outcount, "outcount"));
  world().progress.poll();
  bool any_active = false;
  int n = 0;
  for (int i = 0; i < incount; ++i) {
    any_active |= is_active(requests[i]);
    if (!is_done(requests[i])) continue;
    WEFT_CHECK(kArgumentErrors, fn, check_not_null(indices, "array_of_indices"));
    indices[n++] = i;
  }
  *outcount = any_active ? n : MPI_UNDEFINED;
  return report_several(fn, requests, indices, n, statuses, false, completing);
}

void empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->weft_cancelled = 0;
  status->weft_bytes = 0;
}

int report_to(const ErrorOwner& owner, const char* fn, const Status& s) {
  if (owner.file != MPI_FILE_NULL) return report_file(owner.file, fn, s);
  return report(owner.comm, fn, s);
}

}  // namespace weft::capi
