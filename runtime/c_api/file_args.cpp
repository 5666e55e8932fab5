// Error reporting of the I/O entry points (file_args.hpp).
#include "runtime/c_api/file_args.hpp"

#include <string>

#include "runtime/comm/errhandler.hpp"
#include "runtime/errors.hpp"
#include "runtime/world.hpp"

namespace weft::capi {

int report_file(MPI_File fh, const char* fn, const Status& s) {
  if (s.ok()) return MPI_SUCCESS;
  const io::File* f = io::files().find(fh);
  const MPI_Errhandler handler = f != nullptr ? f->errhandler : io::files().default_errhandler;
  const std::string message = std::string(fn) + ": " + s.message;
  const int code = make_error_code(s.error_class, message);
  if (world().phase == Phase::kRunning) invoke_errhandler(fh, handler, code, message);
  return code;
}

}  // namespace weft::capi
