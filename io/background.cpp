// Background accesses: their requests and the threads that run them. Threads: the application's
// thread (inside an MPI call) stages, places and queues an access; the queue's thread moves the
// data, converts a read's data into memory and calls PMPI_Grequest_complete, after which it
// touches the job no more. A job belongs to its request, whose free_fn deletes it.
#include "io/background.hpp"

#include <memory>
#include <string>

#include "runtime/threads/job_queue.hpp"
#include "io/sieve.hpp"

namespace weft::io {
namespace {

struct Job {
  std::string call;  // how messages name it: the MPI function and the file
  MPI_Request request = MPI_REQUEST_NULL;
  size_t memory = 0;
  Status outcome;
};

int query(void* state, MPI_Status* status) {
  const Job& j = *static_cast<Job*>(state);
  set_status(status, j.memory);
  status->MPI_ERROR = j.outcome.error_class;
  return j.outcome.error_class;
}
int release(void* state) {
  delete static_cast<Job*>(state);
  return MPI_SUCCESS;
}
int cancel(void*, int) { return MPI_SUCCESS; }  // a transfer under way is not cancelled

JobQueue& independent_queue() {
  static JobQueue q;
  return q;
}

// A job for the access `fn` on f, with its request in *request.
Status make_job(const File& f, const char* fn, MPI_Request* request, Job** out) {
  auto j = std::make_unique<Job>();
  j->call = std::string(fn) + " on \"" + f.path + "\"";
  if (PMPI_Grequest_start(query, release, cancel, j.get(), request) != MPI_SUCCESS)
    return Status::error(MPI_ERR_INTERN, "could not make the request");
  j->request = *request;
  *out = j.release();
  return Status::success();
}

}  // namespace

Status start_independent(const File& f, const char* fn, Staged s, MPI_Request* request) {
  Job* j = nullptr;
  WEFT_TRY(make_job(f, fn, request, &j));
  independent_queue().push([j, t = target_of(f), s = std::move(s)]() mutable {
    size_t stream = 0;
    j->outcome = move_independent(t, s.write, s.chunks, s.data(), &stream);
    if (j->outcome.ok()) j->outcome = unstage(s, stream, &j->memory);
    PMPI_Grequest_complete(j->request);
  });
  return Status::success();
}

Status start_collective(File& f, const char* fn, CollectiveAccess c, MPI_Request* request) {
  Job* j = nullptr;
  WEFT_TRY(make_job(f, fn, request, &j));
  if (!f.collectives) f.collectives = std::make_unique<JobQueue>();
  f.collectives->push([j, &f, c = std::move(c)]() mutable {
    size_t stream = 0;
    j->outcome = run_collective(f, c, &stream, &j->memory);
    PMPI_Grequest_complete(j->request);
  });
  return Status::success();
}

Status finish_collectives(File& f) {
  return f.collectives ? f.collectives->drain() : Status::success();
}

Status finish_independent() { return independent_queue().drain(); }

Status background_outcome(void* extra_state) {
  const Job& j = *static_cast<Job*>(extra_state);
  if (j.outcome.ok()) return j.outcome;
  return Status::error(j.outcome.error_class,
                       j.call + " (in the background): " + j.outcome.message);
}

}  // namespace weft::io
