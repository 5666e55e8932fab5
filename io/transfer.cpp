// Conversion, locking and the system calls of one access.
#include "io/transfer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "io/os_errors.hpp"
#include "runtime/datatype/external32.hpp"

namespace weft::io {
namespace {

// An fcntl lock on [lo, hi) of the file while it lives (atomic mode); nothing otherwise.
class RangeLock {
 public:
  RangeLock(const File& f, bool write, const std::vector<Chunk>& chunks) : fd_(f.fd) {
    if (!f.atomic || chunks.empty()) return;
    lock_.l_type = short(write ? F_WRLCK : F_RDLCK);
    lock_.l_whence = SEEK_SET;
    lock_.l_start = chunks.front().offset;
    lock_.l_len = chunks.back().offset + MPI_Offset(chunks.back().bytes) - lock_.l_start;
    while (::fcntl(fd_, F_SETLKW, &lock_) != 0 && errno == EINTR) {
    }
    held_ = true;
  }
  ~RangeLock() {
    if (!held_) return;
    lock_.l_type = F_UNLCK;
    ::fcntl(fd_, F_SETLK, &lock_);
  }
  RangeLock(const RangeLock&) = delete;
  RangeLock& operator=(const RangeLock&) = delete;

 private:
  int fd_;
  struct flock lock_ {};
  bool held_ = false;
};

// pread/pwrite of a whole chunk, retrying short transfers; a read stops at the end of the file.
Status move_chunk(const File& f, bool write, const Chunk& c, unsigned char* data, size_t* done) {
  size_t at = 0;
  while (at < c.bytes) {
    const MPI_Offset where = c.offset + MPI_Offset(at);
    const ssize_t n = write ? ::pwrite(f.fd, data + at, c.bytes - at, where)
                            : ::pread(f.fd, data + at, c.bytes - at, where);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return os_error(errno, write ? "pwrite" : "pread", f.path);
    if (n == 0) break;  // end of file (reads only: a write of 0 bytes does not happen here)
    at += size_t(n);
  }
  *done = at;
  return Status::success();
}

}  // namespace

Status transfer(File& f, MPI_Offset first, const Access& a, size_t* stream, size_t* memory) {
  *stream = *memory = 0;
  const Datatype& t = *a.type;
  const bool ext32 = f.view.representation() == Representation::kExternal32;
  const size_t len = f.view.stream_bytes(t, a.count);
  if (len == 0) return Status::success();
  const std::vector<Chunk> chunks = f.view.chunks(first, len);
  if (chunks.empty()) {
    if (!a.write) return Status::success();
    return Status::error(MPI_ERR_IO, "the view of \"" + f.path + "\" holds no data to write to");
  }
  // The stream bytes: the memory itself when it is contiguous and native, else a staging copy.
  const bool direct = !ext32 && t.is_contiguous(a.count);
  std::vector<unsigned char> staging(direct ? 0 : len);
  unsigned char* data = direct ? static_cast<unsigned char*>(t.data_start(a.buf)) : staging.data();
  if (a.write && !direct) {
    if (ext32) {
      WEFT_TRY(pack_external32(t, a.buf, a.count, data));
    } else {
      t.pack(a.buf, a.count, data);
    }
  }
  {
    RangeLock lock(f, a.write, chunks);
    for (const Chunk& c : chunks) {
      size_t done = 0;
      WEFT_TRY(move_chunk(f, a.write, c, data + *stream, &done));
      *stream += done;
      if (done < c.bytes) break;
    }
  }
  // Under external32 only whole elements count (and are converted back).
  const size_t whole = ext32 ? *stream / external32_size(t) : 0;
  *memory = ext32 ? whole * t.size() : *stream;
  if (a.write || direct) return Status::success();
  if (ext32) {
    unpack_external32(t, data, whole, a.buf);
  } else {
    t.unpack_range(data, a.count, 0, *stream, a.buf);
  }
  return Status::success();
}

}  // namespace weft::io
