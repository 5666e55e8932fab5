// What the executor does differently when a run's user buffers lie in GPU memory (gpu/): its
// scratch is device memory, so intermediate results stay on the GPU and reductions run there;
// each message to or from device memory goes through a slot of pinned host memory, unless the
// transport to its peer takes device memory as it is (CUDA IPC on the node, pt2pt/shm); copies
// and reductions between kinds of memory pick the side that holds the result. Threading: the
// executor's.
#pragma once
#include <vector>

#include "coll/schedule.hpp"
#include "gpu/memory.hpp"
#include "runtime/op/op.hpp"

namespace weft::coll {

class Channel;  // coll/executor.hpp

class DeviceRun {
 public:
  DeviceRun() = default;
  DeviceRun(const DeviceRun&) = delete;
  DeviceRun& operator=(const DeviceRun&) = delete;
  ~DeviceRun();

  // Prepares a run of `s` where the kSend/kRecv buffers are on the device as said; inactive
  // (and nothing allocated) when neither is. Sends and receives `channel` takes device memory
  // for get no slot. Keeps its memory for the next run.
  Status begin(const Schedule& s, bool send_on_device, bool recv_on_device,
               gpu::DeviceMemory* memory, const Channel& channel);
  bool active() const { return memory_ != nullptr; }
  bool on_device(Buf b) const { return active() && device_[int(b)]; }
  // The device scratch of the run (active runs only).
  unsigned char* scratch() const { return scratch_; }
  // The pinned slot a send or post step goes out from or a receive or fetch step lands in
  // (coll/schedule.hpp outgoing, incoming); nullptr when the step's own buffer is host memory
  // or device memory the transport takes as it is (it is used directly then).
  unsigned char* slot(StepId id) const {
    return slot_of_[id] == kNoSlot ? nullptr : pinned_ + slot_of_[id];
  }
  // Moves a step's bytes into its slot before it goes out / out of it after it arrived.
  Status fill_slot(StepId id, const unsigned char* src, size_t bytes) const;
  Status empty_slot(StepId id, unsigned char* dst, size_t bytes) const;
  // dst = src op dst for a reduce step, and a copy step, with either side on the device.
  Status reduce(const Reduction& r, const Step& step, const unsigned char* src,
                unsigned char* dst) const;
  Status copy(const Step& step, const unsigned char* src, unsigned char* dst) const;
  // Copies `bytes` between any two places (host or device).
  Status copy_bytes(unsigned char* dst, const unsigned char* src, size_t bytes) const {
    return memory_->copy(dst, src, bytes);
  }

 private:
  static constexpr size_t kNoSlot = SIZE_MAX;
  void release();

  gpu::DeviceMemory* memory_ = nullptr;     // non-null while active
  gpu::DeviceMemory* owner_ = nullptr;      // the one scratch_ and pinned_ came from
  bool device_[3] = {false, false, false};  // per Buf
  unsigned char* scratch_ = nullptr;        // device
  size_t scratch_capacity_ = 0;
  unsigned char* pinned_ = nullptr;  // slots, then two operand areas of reduce_bytes_
  size_t pinned_capacity_ = 0;
  unsigned char* operand_ = nullptr;  // device: a host operand of a device reduction
  size_t operand_capacity_ = 0;
  size_t slots_bytes_ = 0, reduce_bytes_ = 0;
  std::vector<size_t> slot_of_;
};

}  // namespace weft::coll
