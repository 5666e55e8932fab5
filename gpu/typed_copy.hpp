// Packing and unpacking typed data that may lie in device memory. The datatype engine reads and
// writes host bytes, so device data goes through a host copy of the span it covers (holes
// included, so that unpacking leaves the bytes between elements as they were).
#pragma once
#include <cstddef>
#include <vector>

#include "gpu/memory.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::gpu {

// Bytes [first, last) relative to `buf` that `count` elements of `type` touch.
struct Span {
  ptrdiff_t first = 0, last = 0;
  size_t bytes() const { return size_t(last - first); }
};
Span span_of(size_t count, const Datatype& type);

// Whether `count` elements of `type` at `buf` lie in device memory (asks for where they start).
inline bool typed_on_device(const void* buf, size_t count, const Datatype& type) {
  return count > 0 && type.size() > 0 && on_device(type.data_start(buf));
}

// type.pack / type.unpack_range that also take device buffers (through device_memory()).
Status pack_typed(const void* buf, size_t count, const Datatype& type, void* packed);
Status unpack_typed(const void* packed, size_t count, size_t len, const Datatype& type, void* buf);

// A host copy of bytes [span.first, span.last) around a device address: in memory of its own,
// or in `storage` of at least span.bytes() that the caller keeps (pinned memory, say).
class HostMirror {
 public:
  Status load(DeviceMemory& memory, const void* base, Span span, unsigned char* storage = nullptr);
  // The host address standing for `base`: offsets from it land in the copy.
  void* base() const;
  Status store(DeviceMemory& memory) const;

 private:
  std::vector<unsigned char> own_;
  unsigned char* copy_ = nullptr;
  const void* base_ = nullptr;
  Span span_;
};

}  // namespace weft::gpu
