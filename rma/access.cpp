// Load/store, cross-memory-attach and GPU-copy access to target memory (rma/access.hpp).
#include "rma/access.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "gpu/typed_copy.hpp"
#include "rma/locks.hpp"

namespace weft::rma {
namespace {

unsigned char* local_address(const Target& t, uint64_t address) {
  return reinterpret_cast<unsigned char*>(reinterpret_cast<uintptr_t>(t.mapped) +
                                          uintptr_t(address - t.base));
}

Status cma_error(const Target& t, const char* call, uint64_t address) {
  const int e = errno;
  const int cls = e == EFAULT ? MPI_ERR_RMA_RANGE : MPI_ERR_RMA_CONFLICT;
  char at[32];
  std::snprintf(at, sizeof at, "%#llx", static_cast<unsigned long long>(address));
  return Status::error(cls, std::string(call) + " of the window memory of rank " +
                                std::to_string(t.world_rank) + " (pid " + std::to_string(t.pid) +
                                ") at " + at + " failed: " + std::strerror(e) +
                                (e == EFAULT ? " (no window memory there)" : ""));
}

// One cross-memory transfer of the runs, IOV_MAX runs per system call, retrying short ones.
Status cma_transfer(const TargetSpan& span, unsigned char* packed, bool write) {
  const Target& t = *span.target;
  constexpr size_t kBatch = 512;
  iovec local[kBatch], remote[kBatch];
  const Run* runs = span.runs;
  size_t done = 0;
  for (size_t first = 0; first < span.run_count; first += kBatch) {
    const size_t n = std::min(kBatch, span.run_count - first);
    size_t want = 0;
    for (size_t i = 0; i < n; ++i) {
      const Run& r = runs[first + i];
      remote[i] = {reinterpret_cast<void*>(span.address + uint64_t(r.offset)), r.bytes};
      local[i] = {packed + done + want, r.bytes};
      want += r.bytes;
    }
    const ssize_t got = write ? process_vm_writev(t.pid, local, n, remote, n, 0)
                              : process_vm_readv(t.pid, local, n, remote, n, 0);
    if (got < 0)
      return cma_error(t, write ? "process_vm_writev" : "process_vm_readv",
                       span.address + uint64_t(runs[first].offset));
    if (size_t(got) != want) {
      // A partial transfer stops at a run that is not (all) mapped in the target.
      errno = EFAULT;
      return cma_error(t, write ? "process_vm_writev" : "process_vm_readv", span.address);
    }
    done += want;
  }
  return Status::success();
}

void combine(const Combine& how, const unsigned char* in, unsigned char* inout, size_t bytes) {
  if (how.no_op) return;
  if (how.replace) {
    std::memmove(inout, in, bytes);
    return;
  }
  how.reduction->apply(in, inout, bytes / how.reduction->elem_size);
}

// Window memory in this process's GPU (Target::device): one copy for one run; for several, a
// host mirror of the bytes they span (loaded, then stored back after a write), unless the holes
// between them would make it far larger than the data.
Status device_transfer(const TargetSpan& span, unsigned char* packed, bool write) {
  gpu::DeviceMemory& memory = *gpu::device_memory();
  unsigned char* at = local_address(*span.target, span.address);
  const RunBounds bounds = span_bounds(span);
  const gpu::Span covered{bounds.lo, bounds.hi};
  const size_t bytes = span_bytes(span);
  if (span.run_count > 1 && covered.bytes() <= 4 * bytes + (size_t(1) << 20)) {
    gpu::HostMirror mirror;
    WEFT_TRY(mirror.load(memory, at, covered));
    auto* host = static_cast<unsigned char*>(mirror.base());
    for (const Run& r : span) {
      write ? std::memcpy(host + r.offset, packed, r.bytes)
            : std::memcpy(packed, host + r.offset, r.bytes);
      packed += r.bytes;
    }
    return write ? mirror.store(memory) : Status::success();
  }
  for (const Run& r : span) {
    WEFT_TRY(write ? memory.copy(at + r.offset, packed, r.bytes)
                   : memory.copy(packed, at + r.offset, r.bytes));
    packed += r.bytes;
  }
  return Status::success();
}

// How bytes reach target memory this process cannot load or store: another process's by
// cross-memory attach, this process's GPU memory by the device's copies.
using Transfer = Status (*)(const TargetSpan& span, unsigned char* packed, bool write);
Transfer transfer_of(const Target& t) { return t.device ? device_transfer : cma_transfer; }

// The accumulates into GPU memory that need no host copy of the target (the caller holds the
// accumulate mutex): true, with their outcome in *status, when `how` is one. Without the old
// contents wanted, a no-op does nothing, a replace is a write, and a predefined reduction of one
// run of kDeviceReduceMin bytes or more runs on the device (the origin's data copied there
// first, the kernels of gpu/device_reduce.cu).
constexpr size_t kDeviceReduceMin = 65536;
bool accumulated_on_device(const TargetSpan& span, const unsigned char* packed, const Combine& how,
                           Status* status) {
  if (how.no_op) {
    *status = Status::success();
    return true;
  }
  if (how.replace) {
    *status = device_transfer(span, const_cast<unsigned char*>(packed), true);
    return true;
  }
  gpu::DeviceMemory& memory = *gpu::device_memory();
  const size_t bytes = span_bytes(span);
  if (span.run_count != 1 || bytes < kDeviceReduceMin || how.reduction == nullptr ||
      !memory.can_reduce(*how.reduction))
    return false;
  void* operand = memory.allocate_device(bytes);
  if (operand == nullptr) return false;
  *status = memory.copy(operand, packed, bytes);
  if (status->ok())
    *status = memory.reduce(*how.reduction, operand,
                            local_address(*span.target, span.address) + span.runs[0].offset,
                            bytes / how.reduction->elem_size);
  memory.free_device(operand);
  return true;
}

}  // namespace

size_t span_bytes(const TargetSpan& span) {
  size_t n = 0;
  for (const Run& r : span) n += r.bytes;
  return n;
}

RunBounds span_bounds(const TargetSpan& span) {
  if (span.run_count == 0) return {};
  RunBounds b{span.runs[0].offset, span.runs[0].offset};
  for (const Run& r : span) {
    b.lo = std::min(b.lo, r.offset);
    b.hi = std::max(b.hi, r.offset + ptrdiff_t(r.bytes));
  }
  return b;
}

Status write_runs(const TargetSpan& span, const unsigned char* packed) {
  const Target& t = *span.target;
  if (t.reach == Reach::kMapped && !t.device) {
    for (const Run& r : span) {
      std::memcpy(local_address(t, span.address + uint64_t(r.offset)), packed, r.bytes);
      packed += r.bytes;
    }
    return Status::success();
  }
  return transfer_of(t)(span, const_cast<unsigned char*>(packed), true);
}

Status read_runs(const TargetSpan& span, unsigned char* packed) {
  const Target& t = *span.target;
  if (t.reach == Reach::kMapped && !t.device) {
    for (const Run& r : span) {
      std::memcpy(packed, local_address(t, span.address + uint64_t(r.offset)), r.bytes);
      packed += r.bytes;
    }
    return Status::success();
  }
  return transfer_of(t)(span, packed, false);
}

Status accumulate_runs(const TargetSpan& span, const unsigned char* packed, const Combine& how,
                       unsigned char* old) {
  const Target& t = *span.target;
  AccumulateGuard hold(t.control);
  if (t.reach == Reach::kMapped && !t.device) {
    for (const Run& r : span) {
      unsigned char* at = local_address(t, span.address + uint64_t(r.offset));
      if (old != nullptr) {
        std::memcpy(old, at, r.bytes);
        old += r.bytes;
      }
      if (how.no_op) continue;
      combine(how, packed, at, r.bytes);
      packed += r.bytes;
    }
    return Status::success();
  }
  if (Status done; t.device && old == nullptr && accumulated_on_device(span, packed, how, &done))
    return done;
  // Another process's memory, or GPU memory: fetch it, combine here, write it back, all under
  // the mutex.
  const Transfer transfer = transfer_of(t);
  const size_t bytes = span_bytes(span);
  std::unique_ptr<unsigned char[]> current(new unsigned char[bytes]);
  WEFT_TRY(transfer(span, current.get(), false));
  if (old != nullptr) std::memcpy(old, current.get(), bytes);
  if (how.no_op) return Status::success();
  combine(how, packed, current.get(), bytes);
  return transfer(span, current.get(), true);
}

Status compare_and_swap(const TargetSpan& span, const void* value, const void* compare, void* old,
                        size_t bytes) {
  const Target& t = *span.target;
  AccumulateGuard hold(t.control);
  if (t.reach == Reach::kMapped && !t.device) {
    unsigned char* at = local_address(t, span.address);
    std::memcpy(old, at, bytes);
    if (std::memcmp(at, compare, bytes) == 0) std::memcpy(at, value, bytes);
    return Status::success();
  }
  const Transfer transfer = transfer_of(t);
  WEFT_TRY(transfer(span, static_cast<unsigned char*>(old), false));
  if (std::memcmp(old, compare, bytes) != 0) return Status::success();
  return transfer(span, static_cast<unsigned char*>(const_cast<void*>(value)), true);
}

}  // namespace weft::rma
