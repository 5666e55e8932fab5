// Device mirrors: the footprint of a schedule on each user buffer, copied in and out whole.
#include "coll/device_mirror.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "mpi.h"
#include "runtime/config.hpp"

namespace weft::coll {
namespace {

// The offsets a schedule touches in one user buffer: [first, last), none while `first` > `last`.
struct Footprint {
  ptrdiff_t first = PTRDIFF_MAX, last = PTRDIFF_MIN;
  void touch(size_t offset, size_t bytes) {
    first = std::min(first, ptrdiff_t(offset));
    last = std::max(last, ptrdiff_t(offset + bytes));
  }
  void join(const Footprint& other) {
    first = std::min(first, other.first);
    last = std::max(last, other.last);
  }
  gpu::Span span() const { return first < last ? gpu::Span{first, last} : gpu::Span{}; }
};

}  // namespace

size_t device_mirror_limit() {
  static const size_t limit = size_t(setting_long("WEFT_GPU_MIRROR_LIMIT", 1 << 20));
  return limit;
}

DeviceMirror::~DeviceMirror() {
  if (owner_ != nullptr) owner_->free_pinned(pinned_);
}

Status DeviceMirror::begin(const Schedule& s, size_t limit, gpu::DeviceMemory* memory, Buffers* b) {
  memory_ = nullptr;
  recv_mirrored_ = false;
  Footprint send, recv;
  auto touch = [&](BufRef ref, size_t bytes) {
    if (bytes > 0 && ref.buf != Buf::kScratch)
      (ref.buf == Buf::kSend ? send : recv).touch(ref.offset, bytes);
  };
  for (const Step& step : s.steps()) {
    if (outgoing(step.kind) || step.kind == StepKind::kReduce || step.kind == StepKind::kCopy)
      touch(step.src, step.bytes);
    if (incoming(step.kind) || step.kind == StepKind::kReduce || step.kind == StepKind::kCopy)
      touch(step.dst, step.bytes);
    if (step.kind == StepKind::kArrive) {  // brings its bytes, takes every rank's
      touch(step.src, step.bytes);
      touch(step.dst, step.bytes * size_t(step.peer));
    }
  }
  // In place, the send side is the receive buffer itself: one copy serves both.
  const bool same = b->send == b->recv;
  if (same) recv.join(send);
  const gpu::Span send_span = b->send_on_device && !same ? send.span() : gpu::Span{};
  const gpu::Span recv_span = b->recv_on_device ? recv.span() : gpu::Span{};
  if (send_span.bytes() + recv_span.bytes() > limit) return Status::success();
  const size_t recv_at = scratch_aligned(send_span.bytes());
  const size_t need = recv_at + recv_span.bytes();
  if (owner_ != memory || need > capacity_) {
    if (owner_ != nullptr) owner_->free_pinned(pinned_);
    owner_ = memory;
    pinned_ = static_cast<unsigned char*>(memory->allocate_pinned(need));
    capacity_ = pinned_ != nullptr ? need : 0;
    if (pinned_ == nullptr)
      return Status::error(MPI_ERR_NO_MEM, "cannot allocate " + std::to_string(need) +
                                               " bytes of pinned host memory for a collective "
                                               "on GPU buffers");
  }
  if (send_span.bytes() > 0) {
    WEFT_TRY(send_copy_.load(*memory, b->send, send_span, pinned_));
    b->send = send_copy_.base();  // offsets from it land in the copy
  }
  if (recv_span.bytes() > 0) {
    WEFT_TRY(recv_copy_.load(*memory, b->recv, recv_span, pinned_ + recv_at));
    recv_mirrored_ = true;
    b->recv = recv_copy_.base();
    if (same) b->send = b->recv;
  }
  // Sides the schedule never touches stay where they are: nothing of the run is on the device.
  b->send_on_device = b->recv_on_device = false;
  memory_ = memory;
  return Status::success();
}

Status DeviceMirror::end() {
  gpu::DeviceMemory* memory = memory_;
  memory_ = nullptr;
  if (memory == nullptr || !recv_mirrored_) return Status::success();
  return recv_copy_.store(*memory);
}

}  // namespace weft::coll
