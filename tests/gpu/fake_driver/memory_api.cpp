// The fake driver's memory entry points: allocations of each kind, copies and fills (the
// asynchronous ones run on their stream's thread, streams.hpp), pointer attributes and address
// ranges.
#include <cstring>

#include "fake_driver.hpp"
#include "memory_table.hpp"
#include "streams.hpp"

using namespace fake_cuda;

namespace {

// CU_POINTER_ATTRIBUTE_*: the ones the fake answers.
constexpr int kAttributeContext = 1;
constexpr int kAttributeMemoryType = 2;
constexpr int kAttributeDevicePointer = 3;
constexpr int kAttributeHostPointer = 4;
constexpr int kAttributeBufferId = 7;
constexpr int kAttributeIsManaged = 8;
constexpr int kAttributeDeviceOrdinal = 9;
constexpr int kAttributeIsLegacyIpcCapable = 10;
constexpr int kAttributeRangeStartAddr = 11;
constexpr int kAttributeRangeSize = 12;
constexpr int kAttributeMapped = 13;

constexpr unsigned kMemAttachGlobal = 1, kMemAttachHost = 2;  // CU_MEM_ATTACH_*
constexpr unsigned kHostAllocFlags = 1 | 2 | 4;               // PORTABLE, DEVICEMAP, WRITECOMBINED

CuResult allocate_guarded(RangeKind kind, CuDevicePtr* p, size_t bytes) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (p == nullptr || bytes == 0) return kErrorInvalidValue;
  note_allocation();
  return memory().add_device(kind, bytes, p);
}

CuResult allocate_host(RangeKind kind, void** p, size_t bytes) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (p == nullptr || bytes == 0) return kErrorInvalidValue;
  note_allocation();
  return memory().add_host(kind, bytes, p);
}

template <typename T>
void put(void* data, T value) {
  std::memcpy(data, &value, sizeof value);
}

// Writes one attribute of `range` (nullptr: memory the fake did not hand out, whose attributes
// are all zero, as the real driver's "default NULL values").
CuResult put_attribute(int attribute, void* data, const Range* range) {
  const bool known = range != nullptr;
  const bool host_side = known && !guarded(range->kind);
  switch (attribute) {
    case kAttributeContext:
      put<CuContext>(data, known ? primary_context() : nullptr);
      break;
    case kAttributeMemoryType:
      put<unsigned>(data, !known                              ? 0u
                          : range->kind == RangeKind::kPinned ? kMemoryTypeHost
                                                              : kMemoryTypeDevice);
      break;
    case kAttributeDevicePointer:
      put<CuDevicePtr>(data, known ? range->start : 0);
      break;
    case kAttributeHostPointer:
      put<CuDevicePtr>(data, host_side ? range->start : 0);
      break;
    case kAttributeBufferId:
      put<unsigned long long>(data, known ? range->buffer_id : 0);
      break;
    case kAttributeIsManaged:
      put<bool>(data, known && range->kind == RangeKind::kManaged);
      break;
    case kAttributeDeviceOrdinal:
      put<int>(data, 0);
      break;
    case kAttributeIsLegacyIpcCapable:
      put<bool>(data, known && range->kind == RangeKind::kDevice);
      break;
    case kAttributeRangeStartAddr:
      put<CuDevicePtr>(data, known ? range->start : 0);
      break;
    case kAttributeRangeSize:
      put<size_t>(data, known ? range->size : 0);
      break;
    case kAttributeMapped:
      put<bool>(data, known);
      break;
    default:
      return kErrorNotSupported;  // an attribute the fake does not emulate
  }
  return kSuccess;
}

}  // namespace

FAKE_CUDA_API CuResult cuMemAlloc_v2(CuDevicePtr* p, size_t bytes) {
  return allocate_guarded(RangeKind::kDevice, p, bytes);
}

FAKE_CUDA_API CuResult cuMemAllocAsync(CuDevicePtr* p, size_t bytes, CuStream stream) {
  if (initialized() && !known_stream(stream)) return kErrorInvalidHandle;
  return allocate_guarded(RangeKind::kPool, p, bytes);
}

FAKE_CUDA_API CuResult cuMemAllocManaged(CuDevicePtr* p, size_t bytes, unsigned flags) {
  if (flags != kMemAttachGlobal && flags != kMemAttachHost) return kErrorInvalidValue;
  void* host = nullptr;
  const CuResult e = allocate_host(RangeKind::kManaged, p == nullptr ? nullptr : &host, bytes);
  if (e == kSuccess) *p = CuDevicePtr(reinterpret_cast<uintptr_t>(host));
  return e;
}

FAKE_CUDA_API CuResult cuMemHostAlloc(void** p, size_t bytes, unsigned flags) {
  if ((flags & ~kHostAllocFlags) != 0) return kErrorInvalidValue;
  return allocate_host(RangeKind::kPinned, p, bytes);
}

// Frees wait for all the device's work first, as the real driver's do.
FAKE_CUDA_API CuResult cuMemFree_v2(CuDevicePtr p) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (p == 0) return kSuccess;
  wait_all();
  return memory().remove(p, {RangeKind::kDevice, RangeKind::kPool, RangeKind::kManaged});
}

// Checked now, freed when the stream gets there.
FAKE_CUDA_API CuResult cuMemFreeAsync(CuDevicePtr p, CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (!known_stream(stream)) return kErrorInvalidHandle;
  const std::optional<Range> range = memory().find(p);
  if (!range || range->start != p ||
      (range->kind != RangeKind::kDevice && range->kind != RangeKind::kPool))
    return kErrorInvalidValue;
  enqueue(stream, [p] { return memory().remove(p, {RangeKind::kDevice, RangeKind::kPool}); });
  return kSuccess;
}

FAKE_CUDA_API CuResult cuMemFreeHost(void* p) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  wait_all();
  return memory().remove(CuDevicePtr(reinterpret_cast<uintptr_t>(p)), {RangeKind::kPinned});
}

FAKE_CUDA_API CuResult cuMemcpy(CuDevicePtr dst, CuDevicePtr src, size_t bytes) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return run_synchronously([=] { return memory().copy(dst, src, bytes); });
}

FAKE_CUDA_API CuResult cuMemcpyAsync(CuDevicePtr dst, CuDevicePtr src, size_t bytes,
                                     CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (!known_stream(stream)) return kErrorInvalidHandle;
  enqueue(stream, [=] { return memory().copy(dst, src, bytes); });
  return kSuccess;
}

FAKE_CUDA_API CuResult cuMemsetD8_v2(CuDevicePtr p, unsigned char value, size_t bytes) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return run_synchronously([=] { return memory().set(p, value, bytes); });
}

FAKE_CUDA_API CuResult cuMemsetD8Async(CuDevicePtr p, unsigned char value, size_t bytes,
                                       CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (!known_stream(stream)) return kErrorInvalidHandle;
  enqueue(stream, [=] { return memory().set(p, value, bytes); });
  return kSuccess;
}

FAKE_CUDA_API CuResult cuPointerGetAttributes(unsigned count, int* attributes, void** data,
                                              CuDevicePtr p) {
  if (!initialized()) return kErrorNotInitialized;
  if (count == 0 || attributes == nullptr || data == nullptr) return kErrorInvalidValue;
  const std::optional<Range> range = memory().find(p);
  for (unsigned i = 0; i < count; ++i) {
    if (data[i] == nullptr) return kErrorInvalidValue;
    if (const CuResult e = put_attribute(attributes[i], data[i], range ? &*range : nullptr);
        e != kSuccess)
      return e;
  }
  return kSuccess;
}

FAKE_CUDA_API CuResult cuMemGetAddressRange_v2(CuDevicePtr* base, size_t* size, CuDevicePtr p) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  const std::optional<Range> range = memory().find(p);
  if (!range) return kErrorNotFound;
  if (base != nullptr) *base = range->start;
  if (size != nullptr) *size = range->size;
  return kSuccess;
}
