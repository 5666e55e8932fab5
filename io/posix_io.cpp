// pread/pwrite loops and fcntl range locks.
#include "io/posix_io.hpp"

#include <unistd.h>

#include <cerrno>

#include "io/file.hpp"
#include "io/os_errors.hpp"

namespace weft::io {

Target target_of(const File& f) {
  return {f.fd, f.path, f.atomic, (f.amode & MPI_MODE_WRONLY) == 0, f.hints};
}

RangeLock::RangeLock(int fd, bool write, MPI_Offset lo, MPI_Offset hi, bool active) : fd_(fd) {
  if (!active || hi <= lo) return;
  lock_.l_type = short(write ? F_WRLCK : F_RDLCK);
  lock_.l_whence = SEEK_SET;
  lock_.l_start = lo;
  lock_.l_len = hi - lo;
  while (::fcntl(fd_, F_SETLKW, &lock_) != 0 && errno == EINTR) {
  }
  held_ = true;
}

RangeLock::~RangeLock() {
  if (!held_) return;
  lock_.l_type = F_UNLCK;
  ::fcntl(fd_, F_SETLK, &lock_);
}

Status move_range(int fd, const std::string& path, bool write, MPI_Offset offset, size_t bytes,
                  unsigned char* data, size_t* done) {
  size_t at = 0;
  while (at < bytes) {
    const MPI_Offset where = offset + MPI_Offset(at);
    const ssize_t n = write ? ::pwrite(fd, data + at, bytes - at, where)
                            : ::pread(fd, data + at, bytes - at, where);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return os_error(errno, write ? "pwrite" : "pread", path);
    if (n == 0) break;  // end of file (reads only: a write of 0 bytes does not happen here)
    at += size_t(n);
  }
  *done = at;
  return Status::success();
}

Status move_chunks(const Target& t, bool write, const std::vector<Chunk>& chunks,
                   unsigned char* data, size_t* stream) {
  *stream = 0;
  for (const Chunk& c : chunks) {
    size_t done = 0;
    WEFT_TRY(move_range(t.fd, t.path, write, c.offset, c.bytes, data + *stream, &done));
    *stream += done;
    if (done < c.bytes) break;
  }
  return Status::success();
}

size_t stream_before_end(const std::vector<Chunk>& chunks, MPI_Offset end) {
  size_t n = 0;
  for (const Chunk& c : chunks) {
    if (c.offset + MPI_Offset(c.bytes) <= end) {
      n += c.bytes;
      continue;
    }
    if (c.offset < end) n += size_t(end - c.offset);
    break;
  }
  return n;
}

}  // namespace weft::io
