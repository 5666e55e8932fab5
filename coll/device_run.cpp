// Device runs: pinned slots per message, device scratch, reductions placed where the result is.
#include "coll/device_run.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "coll/executor.hpp"
#include "mpi.h"

namespace weft::coll {
namespace {

Status no_memory(const char* what, size_t bytes) {
  return Status::error(MPI_ERR_NO_MEM, "cannot allocate " + std::to_string(bytes) + " bytes of " +
                                           what + " for a collective on GPU buffers");
}

}  // namespace

DeviceRun::~DeviceRun() { release(); }

void DeviceRun::release() {
  if (owner_ == nullptr) return;
  owner_->free_device(scratch_);
  owner_->free_device(operand_);
  owner_->free_pinned(pinned_);
  scratch_ = pinned_ = operand_ = nullptr;
  scratch_capacity_ = pinned_capacity_ = operand_capacity_ = 0;
  owner_ = nullptr;
}

Status DeviceRun::begin(const Schedule& s, bool send_on_device, bool recv_on_device,
                        gpu::DeviceMemory* memory, const Channel& channel) {
  memory_ = nullptr;
  if (memory == nullptr || (!send_on_device && !recv_on_device)) return Status::success();
  if (owner_ != memory) release();
  owner_ = memory;
  // The scratch joins the user's buffers on the device, so partial results never leave it.
  device_[int(Buf::kSend)] = send_on_device;
  device_[int(Buf::kRecv)] = recv_on_device;
  device_[int(Buf::kScratch)] = true;

  slot_of_.assign(s.size(), kNoSlot);
  slots_bytes_ = 0;
  reduce_bytes_ = 0;
  for (StepId id = 0; id < s.size(); ++id) {
    const Step& step = s.step(id);
    const bool message = step.kind == StepKind::kSend || step.kind == StepKind::kRecv;
    const bool staged = ((outgoing(step.kind) && device_[int(step.src.buf)]) ||
                         (incoming(step.kind) && device_[int(step.dst.buf)])) &&
                        !(message && channel.takes_device_memory(step.peer, step.bytes));
    if (staged) {
      slot_of_[id] = slots_bytes_;
      slots_bytes_ += scratch_aligned(step.bytes);
    } else if (step.kind == StepKind::kReduce) {
      reduce_bytes_ = std::max(reduce_bytes_, scratch_aligned(step.bytes));
    }
  }
  const size_t pinned = slots_bytes_ + 2 * reduce_bytes_;
  if (pinned > pinned_capacity_) {
    memory->free_pinned(pinned_);
    pinned_ = static_cast<unsigned char*>(memory->allocate_pinned(pinned));
    pinned_capacity_ = pinned_ != nullptr ? pinned : 0;
    if (pinned_ == nullptr) return no_memory("pinned host memory", pinned);
  }
  if (reduce_bytes_ > operand_capacity_) {
    memory->free_device(operand_);
    operand_ = static_cast<unsigned char*>(memory->allocate_device(reduce_bytes_));
    operand_capacity_ = operand_ != nullptr ? reduce_bytes_ : 0;
    if (operand_ == nullptr) return no_memory("device memory", reduce_bytes_);
  }
  if (s.scratch_bytes() > scratch_capacity_) {
    memory->free_device(scratch_);
    scratch_ = static_cast<unsigned char*>(memory->allocate_device(s.scratch_bytes()));
    scratch_capacity_ = scratch_ != nullptr ? s.scratch_bytes() : 0;
    if (scratch_ == nullptr) return no_memory("device scratch memory", s.scratch_bytes());
  }
  memory_ = memory;
  return Status::success();
}

Status DeviceRun::fill_slot(StepId id, const unsigned char* src, size_t bytes) const {
  return memory_->copy(slot(id), src, bytes);
}

Status DeviceRun::empty_slot(StepId id, unsigned char* dst, size_t bytes) const {
  return memory_->copy(dst, slot(id), bytes);
}

Status DeviceRun::copy(const Step& step, const unsigned char* src, unsigned char* dst) const {
  if (src == dst || step.bytes == 0) return Status::success();
  if (!on_device(step.src.buf) && !on_device(step.dst.buf)) {
    std::memmove(dst, src, step.bytes);
    return Status::success();
  }
  return memory_->copy(dst, src, step.bytes);
}

Status DeviceRun::reduce(const Reduction& r, const Step& step, const unsigned char* src,
                         unsigned char* dst) const {
  const size_t n = step.bytes / r.elem_size;
  const bool src_device = on_device(step.src.buf), dst_device = on_device(step.dst.buf);
  if (dst_device && memory_->can_reduce(r)) {
    if (!src_device) {  // the host operand joins the result on the device first
      WEFT_TRY(memory_->copy(operand_, src, step.bytes));
      src = operand_;
    }
    return memory_->reduce(r, src, dst, n);
  }
  // On the host: a user op, a type without a device kernel, or a result in host memory.
  unsigned char* host_src = pinned_ + slots_bytes_;
  unsigned char* host_dst = host_src + reduce_bytes_;
  if (src_device) WEFT_TRY(memory_->copy(host_src, src, step.bytes));
  if (dst_device) WEFT_TRY(memory_->copy(host_dst, dst, step.bytes));
  r.apply(src_device ? host_src : src, dst_device ? host_dst : dst, n);
  if (dst_device) WEFT_TRY(memory_->copy(dst, host_dst, step.bytes));
  return Status::success();
}

}  // namespace weft::coll
