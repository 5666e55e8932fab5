// Schedule execution: dependency counting, per-peer message order, completion reaping.
#include "coll/executor.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "mpi.h"

namespace weft::coll {

Status Channel::start_post(const void*, size_t, int, RegionMove, Completion*) {
  return Status::error(MPI_ERR_INTERN, "a node-region collective on a channel without a region");
}

Status Channel::start_fetch(int, size_t, void*, size_t, RegionMove, Completion*) {
  return Status::error(MPI_ERR_INTERN, "a node-region collective on a channel without a region");
}

Status Channel::start_arrive(const void*, size_t, void*, Completion*) {
  return Status::error(MPI_ERR_INTERN, "a node-region collective on a channel without a region");
}

void Executor::start(const Reduction* reduction, Binding binding, Channel* channel) {
  reduction_ = reduction;
  channel_ = channel;
  if (!status_.ok()) status_ = Status::success();
  completed_ = 0;
  const Schedule& schedule = *schedule_;
  bool on_device = binding.send_on_device || binding.recv_on_device;
  gpu::DeviceMemory* memory = on_device ? gpu::device_memory() : nullptr;
  Status s;
  if (memory != nullptr) {
    DeviceMirror::Buffers b{binding.send, binding.recv, binding.send_on_device,
                            binding.recv_on_device};
    s = mirror_.begin(schedule, binding.device_mirror_limit, memory, &b);
    binding.send = b.send;
    binding.recv = b.recv;
    binding.send_on_device = b.send_on_device;
    binding.recv_on_device = b.recv_on_device;
    on_device = b.send_on_device || b.recv_on_device;
  }
  if (s.ok())
    s = device_.begin(schedule, binding.send_on_device, binding.recv_on_device,
                      on_device ? memory : nullptr, *channel);
  if (!s.ok() || (on_device && !device_.active())) {
    fail(s.ok() ? Status::error(MPI_ERR_INTERN, "GPU buffers without GPU support") : std::move(s));
    completed_ = total_;
    return;
  }
  binding_ = binding;
  if (!device_.active() && schedule.scratch_bytes() > scratch_capacity_) {
    const size_t bytes = scratch_aligned(schedule.scratch_bytes());
    scratch_.reset(static_cast<unsigned char*>(std::aligned_alloc(kScratchAlign, bytes)));
    scratch_capacity_ = scratch_.get() != nullptr ? bytes : 0;
    if (scratch_.get() == nullptr) {
      // Nothing can run without its scratch memory; report it rather than touch a null buffer.
      fail(Status::error(MPI_ERR_NO_MEM, "cannot allocate " +
                                             std::to_string(schedule.scratch_bytes()) +
                                             " bytes of collective scratch memory"));
      completed_ = total_;
      return;
    }
  }
  std::copy(initial_pending_.begin(), initial_pending_.end(), pending_.begin());
  ready_.clear();
  ready_head_ = 0;
  in_flight_.clear();
  // First the steps ready from the start, in step order; then those they release.
  for (StepId id : initial_ready_) start_step(id);
  advance();
}

// Dependents in CSR form, the per-peer order links that keep message order, and the steps that
// are ready at the start.
void Executor::plan(const Schedule& s) {
  schedule_ = &s;
  total_ = s.size();
  initial_pending_.assign(total_, 0);
  dependents_at_.assign(total_ + 1, 0);
  order_next_.assign(total_, kNoStep);

  int max_peer = -1;
  uses_region_ = false;
  for (StepId id = 0; id < total_; ++id) {
    const Step& step = s.step(id);
    for (StepId d : s.deps_of(step)) ++dependents_at_[d + 1];
    initial_pending_[id] = step.dep_end - step.dep_begin;
    if (step.kind == StepKind::kSend || step.kind == StepKind::kRecv)
      max_peer = std::max(max_peer, step.peer);
    uses_region_ |= step.kind == StepKind::kPost || step.kind == StepKind::kFetch ||
                    step.kind == StepKind::kArrive;
  }
  for (size_t i = 0; i < total_; ++i) dependents_at_[i + 1] += dependents_at_[i];
  dependents_.resize(dependents_at_[total_]);
  fill_.assign(dependents_at_.begin(), dependents_at_.end() - 1);
  for (StepId id = 0; id < total_; ++id)
    for (StepId d : s.deps_of(s.step(id))) dependents_[fill_[d]++] = id;

  last_send_.assign(size_t(max_peer + 1) * kLanes, kNoStep);
  last_recv_.assign(last_send_.size(), kNoStep);
  for (StepId id = 0; id < total_; ++id) {
    const Step& step = s.step(id);
    if (step.kind != StepKind::kSend && step.kind != StepKind::kRecv) continue;
    const size_t stream = size_t(step.peer) * kLanes + step.lane;
    StepId& last = (step.kind == StepKind::kSend ? last_send_ : last_recv_)[stream];
    if (last != kNoStep) {
      order_next_[last] = id;
      ++initial_pending_[id];
    }
    last = id;
  }
  initial_ready_.clear();
  for (StepId id = 0; id < total_; ++id)
    if (initial_pending_[id] == 0) initial_ready_.push_back(id);
  pending_.resize(total_);
  completions_.resize(total_);  // each is reset when its step starts
}

unsigned char* Executor::address(BufRef ref) const {
  uintptr_t base = 0;
  switch (ref.buf) {
    case Buf::kSend:
      base = reinterpret_cast<uintptr_t>(binding_.send);
      break;
    case Buf::kRecv:
      base = reinterpret_cast<uintptr_t>(binding_.recv);
      break;
    case Buf::kScratch:
      base = reinterpret_cast<uintptr_t>(device_.active() ? device_.scratch() : scratch_.get());
      break;
  }
  return reinterpret_cast<unsigned char*>(base + ref.offset);
}

void Executor::fail(Status s) {
  if (status_.ok()) status_ = std::move(s);
}

void Executor::release(StepId id) {
  if (--pending_[id] == 0) ready_.push_back(id);
}

void Executor::start_step(StepId id) {
  const Step& step = schedule_->step(id);
  switch (step.kind) {
    case StepKind::kSend:
    case StepKind::kRecv:
    case StepKind::kPost:
    case StepKind::kFetch:
      start_transfer(id, step);
      return;
    case StepKind::kArrive:
      start_arrival(id, step);
      return;
    case StepKind::kReduce:
      if (device_.active()) {
        if (Status s = device_.reduce(*reduction_, step, address(step.src), address(step.dst));
            !s.ok())
          fail(std::move(s));
      } else {
        reduction_->apply(address(step.src), address(step.dst), step.bytes / reduction_->elem_size);
      }
      break;
    case StepKind::kCopy: {
      unsigned char* src = address(step.src);
      unsigned char* dst = address(step.dst);
      if (device_.active()) {
        if (Status s = device_.copy(step, src, dst); !s.ok()) fail(std::move(s));
      } else if (src != dst && step.bytes > 0) {
        std::memmove(dst, src, step.bytes);
      }
      break;
    }
    case StepKind::kJoin:
      break;
  }
  complete_step(id);
}

// A send, receive, post or fetch; in a device run, one whose buffer is on the device goes
// through its pinned slot, unless the transport takes it as it is (then it has none).
void Executor::start_transfer(StepId id, const Step& step) {
  Completion* c = &completions_[id];
  *c = Completion{};
  unsigned char* slot = device_.active() ? device_.slot(id) : nullptr;
  const bool out = outgoing(step.kind);
  unsigned char* buf = slot != nullptr ? slot : address(out ? step.src : step.dst);
  Status s;
  if (slot != nullptr && out) s = device_.fill_slot(id, address(step.src), step.bytes);
  if (s.ok()) {
    switch (step.kind) {
      case StepKind::kSend:
        s = channel_->start_send(step.peer, step.lane, buf, step.bytes, c);
        break;
      case StepKind::kRecv:
        s = channel_->start_recv(step.peer, step.lane, buf, step.bytes, c);
        break;
      case StepKind::kPost:
        s = channel_->start_post(buf, step.bytes, step.peer, {step.lane, step.by_reference}, c);
        break;
      default:
        s = channel_->start_fetch(step.peer, step.from, buf, step.bytes,
                                  {step.lane, step.by_reference}, c);
        break;
    }
  }
  if (order_next_[id] != kNoStep) release(order_next_[id]);
  if (!s.ok()) {
    fail(std::move(s));
    complete_step(id);
  } else {
    in_flight_.push_back(id);
  }
}

void Executor::start_arrival(StepId id, const Step& step) {
  Completion* c = &completions_[id];
  *c = Completion{};
  const unsigned char* src = address(step.src);
  unsigned char* dst = address(step.dst);
  Status s;
  // In a device run, a side on the device goes through host memory of the executor's own.
  if (step.bytes > 0 && (device_.on_device(step.src.buf) || device_.on_device(step.dst.buf))) {
    arrival_stage_.resize(step.bytes * size_t(step.peer + 1));
    if (device_.on_device(step.src.buf)) {
      s = device_.copy_bytes(arrival_stage_.data(), src, step.bytes);
      src = arrival_stage_.data();
    }
    if (device_.on_device(step.dst.buf)) dst = arrival_stage_.data() + step.bytes;
  }
  if (s.ok()) s = channel_->start_arrive(src, step.bytes, dst, c);
  if (!s.ok()) {
    fail(std::move(s));
    complete_step(id);
  } else {
    in_flight_.push_back(id);
  }
}

void Executor::arrived(const Step& step, const Completion& c) {
  if (c.error_class != 0) {
    fail(Status::error(c.error_class,
                       "the ranks brought different numbers of bytes to a node-region call (do "
                       "the counts and datatypes agree on every rank?)"));
  } else if (step.bytes > 0 && device_.on_device(step.dst.buf)) {
    if (Status s = device_.copy_bytes(address(step.dst), arrival_stage_.data() + step.bytes,
                                      step.bytes * size_t(step.peer));
        !s.ok())
      fail(std::move(s));
  }
}

void Executor::received(StepId id, const Step& step, const Completion& c) {
  check_received(step, c);
  if (c.error_class == 0 && device_.active() && device_.slot(id) != nullptr) {
    if (Status s = device_.empty_slot(id, address(step.dst), std::min(c.bytes, step.bytes));
        !s.ok())
      fail(std::move(s));
  }
}

void Executor::complete_step(StepId id) {
  ++completed_;
  for (uint32_t i = dependents_at_[id]; i < dependents_at_[id + 1]; ++i) release(dependents_[i]);
}

void Executor::check_received(const Step& step, const Completion& c) {
  if (c.error_class == MPI_ERR_TRUNCATE || (c.error_class == 0 && c.bytes != step.bytes)) {
    fail(Status::error(MPI_ERR_TRUNCATE,
                       "rank " + std::to_string(step.peer) + " sent " +
                           (c.error_class == 0 ? std::to_string(c.bytes) : "more") +
                           " bytes where " + std::to_string(step.bytes) +
                           " were expected (do the counts and datatypes agree on every rank?)"));
  } else if (c.error_class != 0) {
    fail(Status::error(c.error_class, "receive from rank " + std::to_string(step.peer) +
                                          " failed in the transport"));
  }
}

unsigned Executor::advance() {
  const size_t before = completed_;
  for (bool again = true; again;) {
    if (uses_region_) channel_->poll_region();
    // First come, first started: builders add a round's receives before its sends.
    while (ready_head_ < ready_.size()) start_step(ready_[ready_head_++]);
    ready_.clear();
    ready_head_ = 0;
    again = false;
    for (size_t i = 0; i < in_flight_.size();) {
      const StepId id = in_flight_[i];
      const Completion& c = completions_[id];
      if (!c.done) {
        ++i;
        continue;
      }
      const Step& step = schedule_->step(id);
      if (incoming(step.kind)) {
        received(id, step, c);
      } else if (step.kind == StepKind::kArrive) {
        arrived(step, c);
      } else if (c.error_class != 0) {
        fail(Status::error(c.error_class, step.kind == StepKind::kPost
                                              ? "posting to the node region failed"
                                              : "send to rank " + std::to_string(step.peer) +
                                                    " failed in the transport"));
      }
      in_flight_[i] = in_flight_.back();
      in_flight_.pop_back();
      complete_step(id);
      again = true;
    }
  }
  if (completed_ == total_ && mirror_.active())
    if (Status s = mirror_.end(); !s.ok()) fail(std::move(s));
  return unsigned(completed_ - before);
}

}  // namespace weft::coll
