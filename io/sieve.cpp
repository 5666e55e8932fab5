// Data sieving (R. Thakur, W. Gropp, E. Lusk, "Data Sieving and Collective I/O in ROMIO",
// Frontiers of Massively Parallel Computation, 1999, §3): instead of one system call per small
// piece, read one contiguous block that covers many pieces and pick them out; for a write, read
// the block, lay the pieces over it and write it back, holding an fcntl write lock on the block
// so that another process sieving an interleaved range cannot write back stale bytes between.
// Cost: (span / buffer) large calls instead of one per piece, at the price of the holes' bytes.
// Threads: fcntl locks do not exclude threads of one process, so a process-wide mutex also
// guards each read-modify-write (the application's thread and the I/O thread may both sieve).
#include "io/sieve.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace weft::io {
namespace {

constexpr MPI_Offset kMaxHoleRatio = 16;

std::mutex& rmw_mutex() {
  static std::mutex m;
  return m;
}

// Sieves chunks [i, j), which lie in [lo, hi) (hi - lo bytes at most the buffer size), the
// first of them at stream byte *stream, which grows by the bytes moved; *short_read is set when
// the end of the file cut them.
Status sieve_block(const Target& t, bool write, const std::vector<Chunk>& chunks, size_t i,
                   size_t j, unsigned char* data, std::vector<unsigned char>& block, size_t* stream,
                   bool* short_read) {
  const MPI_Offset lo = chunks[i].offset;
  const MPI_Offset hi = chunks[j - 1].offset + MPI_Offset(chunks[j - 1].bytes);
  block.resize(size_t(hi - lo));
  std::unique_lock<std::mutex> in_process(rmw_mutex(), std::defer_lock);
  if (write) in_process.lock();
  RangeLock lock(t.fd, true, lo, hi, write && !t.atomic);  // atomic mode locked the whole access
  size_t got = 0;
  WEFT_TRY(move_range(t.fd, t.path, false, lo, block.size(), block.data(), &got));
  if (write) std::memset(block.data() + got, 0, block.size() - got);  // past the end: a hole
  for (size_t k = i; k < j; ++k) {
    const size_t at = size_t(chunks[k].offset - lo);
    if (write) {
      std::memcpy(block.data() + at, data + *stream, chunks[k].bytes);
      *stream += chunks[k].bytes;
      continue;
    }
    const size_t avail = std::min(chunks[k].bytes, got > at ? got - at : 0);
    std::memcpy(data + *stream, block.data() + at, avail);
    *stream += avail;
    if (avail < chunks[k].bytes) {
      *short_read = true;
      return Status::success();
    }
  }
  if (!write) return Status::success();
  size_t put = 0;
  return move_range(t.fd, t.path, true, lo, block.size(), block.data(), &put);
}

Status sieve(const Target& t, bool write, const std::vector<Chunk>& chunks, unsigned char* data,
             size_t* stream) {
  const MPI_Offset cap =
      MPI_Offset(write ? t.hints.ind_wr_buffer_size : t.hints.ind_rd_buffer_size);
  std::vector<unsigned char> block;
  bool short_read = false;
  size_t i = 0;
  while (i < chunks.size() && !short_read) {
    size_t j = i;
    while (j < chunks.size() &&
           chunks[j].offset + MPI_Offset(chunks[j].bytes) - chunks[i].offset <= cap)
      ++j;
    if (j == i) {  // a piece larger than the buffer goes on its own
      size_t done = 0;
      WEFT_TRY(move_range(t.fd, t.path, write, chunks[i].offset, chunks[i].bytes, data + *stream,
                          &done));
      *stream += done;
      short_read = done < chunks[i].bytes;
      ++i;
      continue;
    }
    WEFT_TRY(sieve_block(t, write, chunks, i, j, data, block, stream, &short_read));
    i = j;
  }
  return Status::success();
}

}  // namespace

bool use_sieving(const Target& t, bool write, const std::vector<Chunk>& chunks) {
  const Switch hint = write ? t.hints.ds_write : t.hints.ds_read;
  if (hint == Switch::kDisable || chunks.size() < 2 || (write && !t.readable)) return false;
  if (hint == Switch::kEnable) return true;
  size_t bytes = 0;
  for (const Chunk& c : chunks) bytes += c.bytes;
  const MPI_Offset span =
      chunks.back().offset + MPI_Offset(chunks.back().bytes) - chunks.front().offset;
  return bytes / chunks.size() < kSmallPiece && span <= kMaxHoleRatio * MPI_Offset(bytes);
}

Status move_independent(const Target& t, bool write, const std::vector<Chunk>& chunks,
                        unsigned char* data, size_t* stream) {
  *stream = 0;
  if (chunks.empty()) return Status::success();
  RangeLock lock(t.fd, write, chunks.front().offset,
                 chunks.back().offset + MPI_Offset(chunks.back().bytes), t.atomic);
  if (use_sieving(t, write, chunks)) return sieve(t, write, chunks, data, stream);
  return move_chunks(t, write, chunks, data, stream);
}

}  // namespace weft::io
