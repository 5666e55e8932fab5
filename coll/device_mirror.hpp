// Small collectives on GPU buffers: the bytes a schedule touches in the user's device buffers
// are copied to pinned host memory before the run, and the receive side's back after it, so
// the run itself is a host run: two or three copies in all instead of copies per message (each
// GPU operation costs tens of microseconds, far more while ranks share one GPU). Large calls
// run as device runs instead (coll/device_run.hpp), whose reductions run on the GPU.
#pragma once
#include <cstddef>

#include "coll/schedule.hpp"
#include "gpu/memory.hpp"
#include "gpu/typed_copy.hpp"

namespace weft::coll {

// The most device bytes a run mirrors (WEFT_GPU_MIRROR_LIMIT, 1 MiB by default), read once.
size_t device_mirror_limit();

class DeviceMirror {
 public:
  DeviceMirror() = default;
  DeviceMirror(const DeviceMirror&) = delete;
  DeviceMirror& operator=(const DeviceMirror&) = delete;
  ~DeviceMirror();

  // The user's buffers of a run; a mirrored one is replaced by its host copy.
  struct Buffers {
    const void* send;
    void* recv;
    bool send_on_device, recv_on_device;
  };
  // When the device sides of `b` that `s` touches fit in `limit` bytes together, copies them to
  // pinned memory and points `b` at the copies (then on the host); otherwise leaves `b` alone
  // and stays inactive.
  Status begin(const Schedule& s, size_t limit, gpu::DeviceMemory* memory, Buffers* b);
  bool active() const { return memory_ != nullptr; }
  // After the run: the receive side back to the device; inactive again.
  Status end();

 private:
  gpu::DeviceMemory* memory_ = nullptr;  // non-null while active
  gpu::DeviceMemory* owner_ = nullptr;   // the one pinned_ came from
  unsigned char* pinned_ = nullptr;      // the copies: the send side's, then the receive side's
  size_t capacity_ = 0;
  gpu::HostMirror send_copy_, recv_copy_;
  bool recv_mirrored_ = false;  // recv_copy_ goes back to the device at end()
};

}  // namespace weft::coll
