// errno → MPI error class.
#include "io/os_errors.hpp"

#include <cerrno>
#include <cstring>

#include "mpi.h"

namespace weft::io {
namespace {

int error_class(int err) {
  switch (err) {
    case ENOENT:
      return MPI_ERR_NO_SUCH_FILE;
    case EACCES:
    case EPERM:
      return MPI_ERR_ACCESS;
    case EEXIST:
      return MPI_ERR_FILE_EXISTS;
    case ENOSPC:
      return MPI_ERR_NO_SPACE;
    case EDQUOT:
      return MPI_ERR_QUOTA;
    case EROFS:
      return MPI_ERR_READ_ONLY;
    case EISDIR:
    case ENAMETOOLONG:
    case ENOTDIR:
    case ELOOP:
      return MPI_ERR_BAD_FILE;
    case EBUSY:
    case ETXTBSY:
      return MPI_ERR_FILE_IN_USE;
    default:
      return MPI_ERR_IO;
  }
}

}  // namespace

Status os_error(int err, const char* what, const std::string& path) {
  return Status::error(error_class(err),
                       std::string(what) + " of \"" + path + "\" failed: " + std::strerror(err));
}

}  // namespace weft::io
