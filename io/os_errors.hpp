// POSIX failures as MPI I/O error classes, with the path and the system's own words.
#pragma once
#include <string>

#include "runtime/status.hpp"

namespace weft::io {

// The Status of a failed system call `what` ("open", "pwrite" ...) on `path` that set `err`:
// ENOENT → MPI_ERR_NO_SUCH_FILE, EACCES/EPERM → MPI_ERR_ACCESS, EEXIST → MPI_ERR_FILE_EXISTS,
// ENOSPC → MPI_ERR_NO_SPACE, EDQUOT → MPI_ERR_QUOTA, EROFS → MPI_ERR_READ_ONLY,
// EISDIR/ENAMETOOLONG/ENOTDIR/ELOOP → MPI_ERR_BAD_FILE, EBUSY/ETXTBSY → MPI_ERR_FILE_IN_USE,
// anything else MPI_ERR_IO.
Status os_error(int err, const char* what, const std::string& path);

}  // namespace weft::io
