// The callbacks of generalized requests and their completion (MPI 4.1 §13.2).
#include "runtime/generalized_request.hpp"

#include <atomic>
#include <string>

#include "runtime/errors.hpp"
#include "runtime/world.hpp"

namespace weft::generalized {
namespace {

// What a callback's return code becomes: the class of `code`, with a message naming the callback.
Status outcome_of(int code, const char* callback) {
  if (code == MPI_SUCCESS) return Status::success();
  const int cls = error_class_of(code);
  return Status::error(cls > 0 ? cls : MPI_ERR_OTHER,
                       std::string("the ") + callback +
                           " callback of the generalized request returned error code " +
                           std::to_string(code) + " (" + error_string(code) + ")");
}

}  // namespace

void start(Request* r, const GeneralizedCallbacks& callbacks) {
  r->kind = WeftRequestKind::kGeneralized;
  r->comm = MPI_COMM_SELF;  // it belongs to no communicator: errors are raised on MPI_COMM_SELF
  r->generalized = std::make_unique<GeneralizedCallbacks>(callbacks);
}

Status query(const Request& r, MPI_Status* status) {
  MPI_Status scratch{};
  MPI_Status* out = status == MPI_STATUS_IGNORE ? &scratch : status;
  // What the status says unless query_fn says otherwise: an empty status (MPI 4.1 §3.7.3).
  out->MPI_SOURCE = MPI_ANY_SOURCE;
  out->MPI_TAG = MPI_ANY_TAG;
  out->weft_cancelled = 0;
  out->weft_bytes = 0;
  const int saved_error = out->MPI_ERROR;  // query_fn must not change it (MPI 4.1 §13.2)
  const int code = r.generalized->query(r.generalized->extra_state, out);
  out->MPI_ERROR = saved_error;
  return outcome_of(code, "query_fn");
}

Status free_state(const Request& r) {
  return outcome_of(r.generalized->free(r.generalized->extra_state), "free_fn");
}

Status cancel(const Request& r) {
  const int done = r.completion.done ? 1 : 0;
  return outcome_of(r.generalized->cancel(r.generalized->extra_state, done), "cancel_fn");
}

Status complete(Request* r) {
  if (r->freed) {  // MPI_Request_free came first: free_fn runs now (MPI 4.1 §13.2)
    Status s = free_state(*r);
    world().requests.release(r);
    return s;
  }
  std::atomic_ref<bool>(r->completion.done).store(true, std::memory_order_release);
  world().transport->wake();
  return Status::success();
}

Status drop(Request* r) {
  if (!r->completion.done) {
    r->freed = true;
    return Status::success();
  }
  Status s = free_state(*r);
  world().requests.release(r);
  return s;
}

}  // namespace weft::generalized
