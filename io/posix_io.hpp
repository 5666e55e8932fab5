// The system calls under every data path: pread/pwrite of a byte range (retrying short
// transfers), one access's ranges in turn, and fcntl byte-range locks.
#pragma once
#include <fcntl.h>

#include <cstddef>
#include <string>
#include <vector>

#include "io/hints.hpp"
#include "io/view.hpp"
#include "runtime/status.hpp"

namespace weft::io {

struct File;

// What the independent data paths need of a file; a copy, so that a background transfer does not
// touch the File the application's thread owns.
struct Target {
  int fd = -1;
  std::string path;
  bool atomic = false;
  bool readable = false;  // opened RDONLY or RDWR (read-modify-write needs it)
  Hints hints;
};
Target target_of(const File& f);

// An fcntl lock on [lo, hi) of the file while it lives; nothing when `active` is false or the
// range is empty. Locks are per process: never nest two on overlapping ranges.
class RangeLock {
 public:
  RangeLock(int fd, bool write, MPI_Offset lo, MPI_Offset hi, bool active);
  ~RangeLock();
  RangeLock(const RangeLock&) = delete;
  RangeLock& operator=(const RangeLock&) = delete;

 private:
  int fd_;
  struct flock lock_ {};
  bool held_ = false;
};

// pread/pwrite of bytes [offset, offset + bytes), retrying short transfers; *done is the bytes
// moved (fewer only when a read meets the end of the file).
Status move_range(int fd, const std::string& path, bool write, MPI_Offset offset, size_t bytes,
                  unsigned char* data, size_t* done);

// One pread/pwrite per chunk, the stream bytes at `data`; *stream is the bytes moved, stopping
// at the first chunk a read finds cut short by the end of the file.
Status move_chunks(const Target& t, bool write, const std::vector<Chunk>& chunks,
                   unsigned char* data, size_t* stream);

// Stream bytes of `chunks` that lie before file offset `end`, up to the first chunk it cuts.
size_t stream_before_end(const std::vector<Chunk>& chunks, MPI_Offset end);

}  // namespace weft::io
