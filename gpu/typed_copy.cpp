// Typed packing for device buffers: contiguous data is one copy, the rest goes through a mirror.
#include "gpu/typed_copy.hpp"

#include <algorithm>
#include <cstdint>

namespace weft::gpu {
namespace {

unsigned char* shifted(const void* p, ptrdiff_t offset) {
  return reinterpret_cast<unsigned char*>(reinterpret_cast<uintptr_t>(p) + uintptr_t(offset));
}

}  // namespace

Span span_of(size_t count, const Datatype& type) {
  if (count == 0 || type.size() == 0) return {};
  const ptrdiff_t last_element = ptrdiff_t(count - 1) * type.extent();
  const ptrdiff_t first = type.true_lb() + std::min<ptrdiff_t>(0, last_element);
  const ptrdiff_t last = type.true_lb() + type.true_extent() + std::max<ptrdiff_t>(0, last_element);
  return {first, last};
}

Status HostMirror::load(DeviceMemory& memory, const void* base, Span span, unsigned char* storage) {
  base_ = base;
  span_ = span;
  if (storage == nullptr) {
    own_.resize(span.bytes());
    storage = own_.data();
  }
  copy_ = storage;
  return memory.copy(copy_, shifted(base, span.first), span.bytes());
}

void* HostMirror::base() const { return shifted(copy_, -span_.first); }

Status HostMirror::store(DeviceMemory& memory) const {
  return memory.copy(shifted(base_, span_.first), copy_, span_.bytes());
}

Status pack_typed(const void* buf, size_t count, const Datatype& type, void* packed) {
  if (!typed_on_device(buf, count, type)) {
    type.pack(buf, count, packed);
    return Status::success();
  }
  DeviceMemory& memory = *device_memory();
  if (type.is_contiguous(count))
    return memory.copy(packed, type.data_start(buf), count * type.size());
  HostMirror mirror;
  WEFT_TRY(mirror.load(memory, buf, span_of(count, type)));
  type.pack(mirror.base(), count, packed);
  return Status::success();
}

Status unpack_typed(const void* packed, size_t count, size_t len, const Datatype& type, void* buf) {
  if (!typed_on_device(buf, count, type)) {
    type.unpack_range(packed, count, 0, len, buf);
    return Status::success();
  }
  DeviceMemory& memory = *device_memory();
  if (type.is_contiguous(count)) return memory.copy(type.data_start(buf), packed, len);
  HostMirror mirror;
  WEFT_TRY(mirror.load(memory, buf, span_of(count, type)));
  type.unpack_range(packed, count, 0, len, mirror.base());
  return mirror.store(memory);
}

}  // namespace weft::gpu
