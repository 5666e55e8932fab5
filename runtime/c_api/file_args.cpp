// Error reporting and completed requests of the I/O entry points (file_args.hpp).
#include "runtime/c_api/file_args.hpp"

#include <string>

#include "runtime/comm/errhandler.hpp"
#include "runtime/errors.hpp"
#include "runtime/world.hpp"

namespace weft::capi {
namespace {

int query(void* extra_state, MPI_Status* status) {
  *status = *static_cast<MPI_Status*>(extra_state);
  return MPI_SUCCESS;
}
int release(void* extra_state) {
  delete static_cast<MPI_Status*>(extra_state);
  return MPI_SUCCESS;
}
int cancel(void*, int) { return MPI_SUCCESS; }

}  // namespace

int report_file(MPI_File fh, const char* fn, const Status& s) {
  if (s.ok()) return MPI_SUCCESS;
  const io::File* f = io::files().find(fh);
  const MPI_Errhandler handler = f != nullptr ? f->errhandler : io::files().default_errhandler;
  const std::string message = std::string(fn) + ": " + s.message;
  const int code = make_error_code(s.error_class, message);
  if (world().phase == Phase::kRunning) invoke_errhandler(fh, handler, code, message);
  return code;
}

Status completed_file_request(const MPI_Status& status, MPI_Request* request) {
  auto* copy = new MPI_Status(status);
  if (PMPI_Grequest_start(query, release, cancel, copy, request) != MPI_SUCCESS) {
    delete copy;
    return Status::error(MPI_ERR_INTERN, "could not make the request");
  }
  PMPI_Grequest_complete(*request);
  return Status::success();
}

}  // namespace weft::capi
