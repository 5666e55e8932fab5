// Device mirrors: the footprint of a schedule on each user buffer, copied in and out whole.
#include "coll/device_mirror.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "mpi.h"

namespace weft::coll {
namespace {

unsigned char* shifted(const void* p, size_t offset, bool back = false) {
  const uintptr_t base = reinterpret_cast<uintptr_t>(p);
  return reinterpret_cast<unsigned char*>(back ? base - offset : base + offset);
}

}  // namespace

DeviceMirror::~DeviceMirror() {
  if (owner_ != nullptr) owner_->free_pinned(pinned_);
}

Status DeviceMirror::begin(const Schedule& s, size_t limit, gpu::DeviceMemory* memory, Buffers* b) {
  memory_ = nullptr;
  Side send, recv;
  auto touch = [&](BufRef ref, size_t bytes) {
    if (bytes == 0 || ref.buf == Buf::kScratch) return;
    Side& side = ref.buf == Buf::kSend ? send : recv;
    side.first = std::min(side.first, ref.offset);
    side.last = std::max(side.last, ref.offset + bytes);
  };
  for (const Step& step : s.steps()) {
    if (step.kind == StepKind::kSend || step.kind == StepKind::kReduce ||
        step.kind == StepKind::kCopy)
      touch(step.src, step.bytes);
    if (step.kind == StepKind::kRecv || step.kind == StepKind::kReduce ||
        step.kind == StepKind::kCopy)
      touch(step.dst, step.bytes);
  }
  // In place, the send side is the receive buffer itself: one copy serves both.
  const bool same = b->send == b->recv;
  if (same) {
    recv.first = std::min(recv.first, send.first);
    recv.last = std::max(recv.last, send.last);
  }
  const size_t send_bytes = b->send_on_device && !same ? send.bytes() : 0;
  const size_t recv_bytes = b->recv_on_device ? recv.bytes() : 0;
  if (send_bytes + recv_bytes > limit) return Status::success();
  const size_t need = (send_bytes + 63) / 64 * 64 + recv_bytes;
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
  unsigned char* at = pinned_;
  if (send_bytes > 0) {
    WEFT_TRY(memory->copy(at, shifted(b->send, send.first), send_bytes));
    b->send = shifted(at, send.first, true);  // offsets from it land in the copy
    b->send_on_device = false;
    at += (send_bytes + 63) / 64 * 64;
  }
  recv_ = nullptr;
  if (recv_bytes > 0) {
    WEFT_TRY(memory->copy(at, shifted(b->recv, recv.first), recv_bytes));
    recv_ = b->recv;
    recv_copy_ = at;
    recv_side_ = recv;
    b->recv = shifted(at, recv.first, true);
    b->recv_on_device = false;
    if (same) b->send = b->recv, b->send_on_device = false;
  }
  // Sides the schedule never touches stay where they are: nothing of the run is on the device.
  b->send_on_device = b->recv_on_device = false;
  memory_ = memory;
  return Status::success();
}

Status DeviceMirror::end() {
  gpu::DeviceMemory* memory = memory_;
  memory_ = nullptr;
  if (memory == nullptr || recv_ == nullptr) return Status::success();
  return memory->copy(shifted(recv_, recv_side_.first), recv_copy_, recv_side_.bytes());
}

}  // namespace weft::coll
