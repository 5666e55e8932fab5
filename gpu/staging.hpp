// Device data moved through pinned host memory in chunks, as a pipeline: while the CPU or the
// network works on one chunk, the GPU's copy engine fills or drains the next ones on Weft's
// stream. For transfers of device memory that a transport cannot take as it is.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "gpu/memory.hpp"

namespace weft::gpu {

// How a pipeline cuts its data: chunks of `chunk_bytes`, at most `depth` of them under way
// (WEFT_GPU_STAGING_CHUNK, WEFT_GPU_STAGING_DEPTH).
struct StagingShape {
  size_t chunk_bytes = size_t(1) << 20;
  size_t depth = 4;
};

// The pinned host chunks of one pipeline, each with the copy under way into or out of it.
class StagingChunks {
 public:
  StagingChunks(DeviceMemory& memory, StagingShape shape, size_t bytes);
  ~StagingChunks();  // waits for the copies under way, then gives the chunks back
  StagingChunks(const StagingChunks&) = delete;
  StagingChunks& operator=(const StagingChunks&) = delete;

  struct Chunk {
    unsigned char* host = nullptr;
    CopyStarted copying = nullptr;
    bool busy = false;    // a copy was started and not yet waited for
    bool pinned = false;  // host came from allocate_pinned
  };
  size_t size() const { return chunks_.size(); }
  size_t chunk_bytes() const { return chunk_bytes_; }
  // Chunk `k` of the ring; its host memory is allocated at the first use.
  Chunk& at(size_t k);
  // Starts copying, with chunk `k` as one side (after its last copy, if any).
  Status start(size_t k, void* dst, const void* src, size_t n);
  // Waits for chunk `k`'s copy, if one is under way.
  Status wait(size_t k);
  size_t copies_started() const { return copies_started_; }

 private:
  DeviceMemory& memory_;
  size_t chunk_bytes_;
  std::vector<Chunk> chunks_;
  std::vector<std::unique_ptr<unsigned char[]>> unpinned_;  // where pinning failed
  size_t copies_started_ = 0;
};

// Reads `bytes` of device memory at `src` into host memory, front to back: the chunks after the
// one being read are copying while it is read.
class DeviceReader {
 public:
  DeviceReader(DeviceMemory& memory, const void* src, size_t bytes, StagingShape shape);
  // Copies bytes [offset, offset + n) to `dst`. Reads are expected in ascending order; one that
  // goes back behind the chunk at hand (a fragment sent again) is copied from the device directly.
  Status read(size_t offset, void* dst, size_t n);
  size_t chunks_copied() const { return chunks_.copies_started(); }

 private:
  size_t chunk_count() const;
  // Retires chunks before `index`, starts those after it up to the depth, waits for `index`.
  Status reach(size_t index);

  DeviceMemory& memory_;
  const unsigned char* src_;
  size_t bytes_;
  StagingChunks chunks_;
  size_t first_ = 0, next_ = 0;  // chunks [first_, next_) are started, in ring slot index % depth
  Status failed_ = Status::success();
};

// Writes `bytes` of device memory at `dst` from host data, front to back: each chunk goes to the
// device when full, while the next ones fill.
class DeviceWriter {
 public:
  DeviceWriter(DeviceMemory& memory, void* dst, size_t bytes, StagingShape shape);
  // Host memory for the bytes from `offset` on (within [0, bytes)): at most *n (made smaller to
  // fit the chunk) bytes, to be filled and then committed. Writing elsewhere than where the last
  // ended starts a new chunk.
  unsigned char* space(size_t offset, size_t* n);
  Status commit(size_t n);
  // space, a copy into it and commit, for data in hand; any order (UCX may unpack out of order).
  Status write(size_t offset, const void* src, size_t n);
  // Sends the last chunk and waits for all: the device holds what was written when it returns.
  Status finish();
  size_t written() const { return written_; }
  size_t chunks_copied() const { return chunks_.copies_started(); }

 private:
  Status flush();

  unsigned char* dst_;
  size_t bytes_;
  StagingChunks chunks_;
  size_t slot_ = 0;               // the ring slot being filled
  size_t base_ = 0, filled_ = 0;  // it stands for device bytes [base_, base_ + filled_)
  size_t written_ = 0;
  Status failed_ = Status::success();
};

}  // namespace weft::gpu
