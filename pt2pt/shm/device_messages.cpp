// Messages in GPU memory between ranks of the node (pt2pt/shm/shm_transport.hpp): the sender
// exports the allocation holding a large device message (CUDA IPC), the receiver maps it once
// (gpu/ipc_cache.hpp) and copies the message straight into its buffer, device or host. Where
// the memory cannot be shared (a stream-ordered pool's) the sender copies it to host memory
// first; where the receiver cannot map it (no peer access between the GPUs, no CUDA there) it
// says so and the sender offers a host copy instead, and sends its later messages to that rank
// that way from the start.
#include <algorithm>
#include <cstring>

#include "gpu/memory.hpp"
#include "pt2pt/shm/cross_memory.hpp"
#include "pt2pt/shm/shm_transport.hpp"
#include "runtime/tools/counters.hpp"

namespace weft::shm {

bool ShmTransport::stage(DeviceSend& s) {
  s.staged = std::make_unique_for_overwrite<unsigned char[]>(s.len);
  return gpu::device_memory()->copy(s.staged.get(), s.buf, s.len).ok();
}

std::string device_path_text(bool ipc, const std::string& eager_limit) {
  if (!ipc) return "through host memory (WEFT_GPU_IPC=0, or no CUDA driver)";
  return "over " + eager_limit +
         " mapped by the receiver (CUDA IPC), through host memory where the memory cannot be "
         "shared; up to that through host memory";
}

std::string ShmTransport::device_memory_path() const {
  return "node (shm): " + device_path_text(device_ipc_, std::to_string(eager_limit_) + " bytes");
}

bool ShmTransport::device_receive(const void* buf, size_t capacity) const {
  return device_ipc_ && capacity > eager_limit_ && gpu::on_device(buf);
}

Status ShmTransport::send_device(int to, const void* buf, size_t len, uint64_t bits,
                                 uint64_t cookie) {
  DeviceSend& s = device_sends_[cookie];
  s.buf = buf;
  s.len = len;
  if (cannot_map_ours_[size_t(to)] == 0 &&
      gpu::device_memory()->export_memory(buf, &s.offer.memory)) {
    s.offer.offset = reinterpret_cast<uint64_t>(buf) - s.offer.memory.base;
    tools::g_counters.shm_device_mapped_sent.add(1);
    return send_record(
        to, Pending{RecordKind::kDeviceRendezvous, 0, bits, len, cookie, &s.offer, 0, nullptr});
  }
  if (!stage(s)) {
    device_sends_.erase(cookie);
    --waiting_sends_[size_t(to)];
    return Status::error(MPI_ERR_OTHER, "copying a GPU message of " + std::to_string(len) +
                                            " bytes to host memory failed");
  }
  tools::g_counters.shm_device_staged_sent.add(1);
  return send_record(to, Pending{RecordKind::kRendezvous, 0, bits, len, cookie, nullptr,
                                 reinterpret_cast<uint64_t>(s.staged.get()), nullptr});
}

bool ShmTransport::read_device(const Arrival& m, void* buf, size_t n, bool* ok) {
  gpu::DeviceMemory* memory = gpu::device_memory();
  if (memory == nullptr) return false;  // no CUDA in this process: cannot map GPU memory
  DeviceOffer offer;
  std::memcpy(&offer, m.payload, sizeof offer);
  // Our own message (a send to self) is at its address already.
  void* base = reinterpret_cast<void*>(offer.memory.base);
  if (m.from != me_) {
    std::string why;
    base = ipc_cache_.map(*memory, m.from, offer.memory, &why);
    if (base == nullptr) return false;
  }
  *ok = memory->copy(buf, static_cast<unsigned char*>(base) + offer.offset, n).ok();
  return true;
}

bool ShmTransport::read_host(int from, uint64_t address, void* buf, size_t n, bool to_device) {
  const pid_t pid = segment_->peer(from)->pid;
  if (!to_device) return cross_memory_copy(pid, true, reinterpret_cast<uint64_t>(buf), address, n);
  // process_vm_readv cannot write GPU memory: it reads into pinned chunks, each going on to the
  // device while the next is read.
  gpu::DeviceWriter writer(*gpu::device_memory(), buf, n, staging_);
  for (size_t at = 0; at < n;) {
    size_t piece = n - at;
    unsigned char* host = writer.space(at, &piece);
    if (!cross_memory_copy(pid, true, reinterpret_cast<uint64_t>(host), address + at, piece) ||
        !writer.commit(piece).ok())
      return false;
    at += piece;
  }
  const bool ok = writer.finish().ok();
  tools::g_counters.gpu_staged_chunks.add(writer.chunks_copied());
  return ok;
}

void ShmTransport::offer_staged_copy(int to, uint64_t cookie) {
  cannot_map_ours_[size_t(to)] = 1;
  DeviceSend& s = device_sends_.at(cookie);
  const bool ok = stage(s);
  tools::g_counters.shm_device_staged_sent.add(1);
  (void)send_record(
      to, Pending{RecordKind::kStagedCopy, uint16_t(ok ? 0 : kCopyFailed), 0, 0, cookie, nullptr,
                  reinterpret_cast<uint64_t>(s.staged.get()), nullptr});
}

void ShmTransport::receive_staged_copy(int from, RecordHeader* h) {
  for (size_t i = 0; i < awaited_copies_.size(); ++i) {
    const AwaitedCopy a = awaited_copies_[i];
    if (a.from != from || a.cookie != h->cookie) continue;
    awaited_copies_.erase(awaited_copies_.begin() + ptrdiff_t(i));
    const size_t n = size_t(std::min<uint64_t>(a.bytes, a.capacity));
    uint64_t address = 0;
    std::memcpy(&address, h->payload(), sizeof address);
    const bool ok = (h->flags & kCopyFailed) == 0 &&
                    read_host(from, address, a.buf, n, device_receive(a.buf, a.capacity));
    (void)send_record(from, Pending{RecordKind::kFin, 0, 0, 0, a.cookie, nullptr, 0, nullptr});
    complete_recv(a.c, a.bits, a.bytes, a.capacity, ok);
    return;
  }
}

}  // namespace weft::shm
