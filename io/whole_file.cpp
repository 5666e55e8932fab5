// The collective calls on a whole file: size, preallocation, sync, atomicity, hints. Each first
// waits for the file's queued collective accesses (background.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "io/agree.hpp"
#include "io/background.hpp"
#include "io/manage.hpp"
#include "io/os_errors.hpp"

namespace weft::io {
namespace {

// Runs `op` on rank 0 and hands its result to every rank (after it, the change is visible).
template <class Op>
Status on_rank0(File& f, Op op) {
  Status s = f.rank == 0 ? op() : Status::success();
  return agree(f.comm, std::move(s));
}

Status check_size(File& f, MPI_Offset size) {
  if (size < 0)
    return Status::error(MPI_ERR_ARG, "invalid size=" + std::to_string(size) + " (must be >= 0)");
  if (f.amode & MPI_MODE_SEQUENTIAL)
    return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                         "not allowed on a file opened with MPI_MODE_SEQUENTIAL");
  if (f.amode & MPI_MODE_RDONLY)
    return Status::error(MPI_ERR_READ_ONLY, "\"" + f.path + "\" was opened MPI_MODE_RDONLY");
  return check_same(f.comm, size, "size=" + std::to_string(size));
}

}  // namespace

Status set_size(File& f, MPI_Offset size) {
  WEFT_TRY(finish_collectives(f));
  WEFT_TRY(check_size(f, size));
  return on_rank0(f, [&] {
    return ::ftruncate(f.fd, size) == 0 ? Status::success() : os_error(errno, "ftruncate", f.path);
  });
}

Status preallocate(File& f, MPI_Offset size) {
  WEFT_TRY(finish_collectives(f));
  WEFT_TRY(check_size(f, size));
  return on_rank0(f, [&] {
    MPI_Offset now = 0;
    WEFT_TRY(get_size(f, &now));
    if (size <= now) return Status::success();
    const int err = ::posix_fallocate(f.fd, now, size - now);
    return err == 0 ? Status::success() : os_error(err, "posix_fallocate", f.path);
  });
}

Status get_size(const File& f, MPI_Offset* size) {
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return os_error(errno, "fstat", f.path);
  *size = st.st_size;
  return Status::success();
}

Status sync(File& f) {
  WEFT_TRY(finish_collectives(f));
  Status s;
  if (!(f.amode & MPI_MODE_RDONLY) && ::fsync(f.fd) != 0 && errno != EINVAL)
    s = os_error(errno, "fsync", f.path);
  return agree(f.comm, std::move(s));
}

Status set_atomicity(File& f, int flag) {
  WEFT_TRY(finish_collectives(f));
  WEFT_TRY(check_same(f.comm, flag != 0, "flag=" + std::to_string(flag)));
  f.atomic = flag != 0;
  return Status::success();
}

Status set_info(File& f, MPI_Info info) {
  WEFT_TRY(finish_collectives(f));
  f.hints.update(info);
  return Status::success();
}

}  // namespace weft::io
