// Staging pipelines (gpu/staging.hpp): a ring of pinned chunks, each with at most one copy under
// way, read or filled in order while the copies of the chunks around it run.
#include "gpu/staging.hpp"

#include <algorithm>
#include <cstring>

namespace weft::gpu {

StagingChunks::StagingChunks(DeviceMemory& memory, StagingShape shape, size_t bytes)
    : memory_(memory), chunk_bytes_(std::max<size_t>(shape.chunk_bytes, 1)) {
  const size_t needed = (bytes + chunk_bytes_ - 1) / chunk_bytes_;
  chunks_.resize(std::min(std::max<size_t>(shape.depth, 1), needed));
}

StagingChunks::~StagingChunks() {
  for (Chunk& c : chunks_) {
    if (c.busy) (void)memory_.wait_copy(c.copying);  // nothing to tell: the data is dropped
    if (c.pinned) memory_.free_pinned(c.host);
  }
}

StagingChunks::Chunk& StagingChunks::at(size_t k) {
  Chunk& c = chunks_[k];
  if (c.host == nullptr) {
    c.host = static_cast<unsigned char*>(memory_.allocate_pinned(chunk_bytes_));
    c.pinned = c.host != nullptr;
    if (!c.pinned) {
      unpinned_.push_back(std::make_unique_for_overwrite<unsigned char[]>(chunk_bytes_));
      c.host = unpinned_.back().get();
    }
  }
  return c;
}

Status StagingChunks::start(size_t k, void* dst, const void* src, size_t n) {
  WEFT_TRY(wait(k));  // the pipelines wait before reuse; a slip must not lose a copy under way
  Chunk& c = chunks_[k];
  ++copies_started_;
  WEFT_TRY(memory_.start_copy(dst, src, n, &c.copying));
  c.busy = true;
  return Status::success();
}

Status StagingChunks::wait(size_t k) {
  Chunk& c = chunks_[k];
  if (!c.busy) return Status::success();
  c.busy = false;
  return memory_.wait_copy(c.copying);
}

DeviceReader::DeviceReader(DeviceMemory& memory, const void* src, size_t bytes, StagingShape shape)
    : memory_(memory),
      src_(static_cast<const unsigned char*>(src)),
      bytes_(bytes),
      chunks_(memory, shape, bytes) {}

size_t DeviceReader::chunk_count() const {
  return (bytes_ + chunks_.chunk_bytes() - 1) / chunks_.chunk_bytes();
}

Status DeviceReader::reach(size_t index) {
  const size_t depth = chunks_.size();
  if (index >= first_ + depth) {  // far ahead: what is under way is of no use
    for (size_t i = first_; i < next_; ++i) WEFT_TRY(chunks_.wait(i % depth));
    first_ = next_ = index;
  }
  for (; first_ < index; ++first_) WEFT_TRY(chunks_.wait(first_ % depth));
  next_ = std::max(next_, first_);  // chunks skipped without being started stay so
  const size_t chunk = chunks_.chunk_bytes();
  for (; next_ < chunk_count() && next_ < first_ + depth; ++next_) {
    const size_t at = next_ * chunk;
    WEFT_TRY(chunks_.start(next_ % depth, chunks_.at(next_ % depth).host, src_ + at,
                           std::min(chunk, bytes_ - at)));
  }
  return chunks_.wait(index % depth);
}

Status DeviceReader::read(size_t offset, void* dst, size_t n) {
  if (offset > bytes_ || n > bytes_ - offset)
    return Status::error(MPI_ERR_INTERN, "a staged read past the end of the device data");
  auto* out = static_cast<unsigned char*>(dst);
  const size_t chunk = chunks_.chunk_bytes();
  while (n > 0 && failed_.ok()) {
    const size_t index = offset / chunk;
    const size_t piece = std::min(n, (index + 1) * chunk - offset);
    if (index < first_) {
      failed_ = memory_.copy(out, src_ + offset, piece);
    } else if (failed_ = reach(index); failed_.ok()) {
      std::memcpy(out, chunks_.at(index % chunks_.size()).host + (offset - index * chunk), piece);
    }
    offset += piece;
    out += piece;
    n -= piece;
  }
  return failed_;
}

DeviceWriter::DeviceWriter(DeviceMemory& memory, void* dst, size_t bytes, StagingShape shape)
    : dst_(static_cast<unsigned char*>(dst)), bytes_(bytes), chunks_(memory, shape, bytes) {}

unsigned char* DeviceWriter::space(size_t offset, size_t* n) {
  if (filled_ > 0 && offset != base_ + filled_) failed_ = flush();
  if (filled_ == 0) {
    base_ = offset;
    if (Status s = chunks_.wait(slot_); !s.ok()) failed_ = s;  // its last copy is done first
  }
  *n = std::min(*n, chunks_.chunk_bytes() - filled_);
  return chunks_.at(slot_).host + filled_;
}

Status DeviceWriter::commit(size_t n) {
  filled_ += n;
  written_ += n;
  if (filled_ == chunks_.chunk_bytes() && failed_.ok()) failed_ = flush();
  return failed_;
}

Status DeviceWriter::write(size_t offset, const void* src, size_t n) {
  if (offset > bytes_ || n > bytes_ - offset)
    return Status::error(MPI_ERR_TRUNCATE, "staged data past the end of the device buffer");
  const auto* in = static_cast<const unsigned char*>(src);
  while (n > 0 && failed_.ok()) {
    size_t piece = n;
    unsigned char* host = space(offset, &piece);  // makes piece fit
    std::memcpy(host, in, piece);
    WEFT_TRY(commit(piece));
    offset += piece;
    in += piece;
    n -= piece;
  }
  return failed_;
}

Status DeviceWriter::flush() {
  if (filled_ == 0) return Status::success();
  const Status s = chunks_.start(slot_, dst_ + base_, chunks_.at(slot_).host, filled_);
  filled_ = 0;
  slot_ = (slot_ + 1) % chunks_.size();
  return s;
}

Status DeviceWriter::finish() {
  if (failed_.ok()) failed_ = flush();
  for (size_t k = 0; k < chunks_.size(); ++k) {
    const Status s = chunks_.wait(k);
    if (failed_.ok()) failed_ = s;
  }
  return failed_;
}

}  // namespace weft::gpu
