// Request outcomes and release, generalized requests included.
#include "runtime/c_api/request_status.hpp"

#include <string>

#include "io/background.hpp"
#include "pt2pt/match_bits.hpp"
#include "runtime/c_api/file_args.hpp"
#include "runtime/generalized_request.hpp"
#include "runtime/world.hpp"

namespace weft::capi {

Status request_outcome(const Request& r) {
  if (r.kind == WeftRequestKind::kActivity) return r.activity->outcome();
  const Completion& c = r.completion;
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
