// A user buffer described by derived datatypes that are not contiguous, as a collective sees it:
// pieces (`count` elements of a type, `offset` bytes from the user's pointer) that are packed
// back to back into staging memory before a run and unpacked from it after. Schedules only ever
// see contiguous bytes; contiguous types never come here (they are bound directly).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "runtime/datatype/datatype.hpp"

namespace weft::coll {

class TypedBuffer {
 public:
  // Appends a piece; its packed bytes follow the previous pieces'.
  void add(ptrdiff_t offset, size_t count, std::shared_ptr<const Datatype> type);
  bool empty() const { return pieces_.empty(); }
  size_t packed_bytes() const { return packed_bytes_; }
  // Either side of `user` may be device memory (gpu/typed_copy.hpp); fails only on a failed copy.
  Status pack(const void* user, unsigned char* packed) const;
  Status unpack(const unsigned char* packed, void* user) const;

 private:
  struct Piece {
    ptrdiff_t offset;
    size_t count;
    std::shared_ptr<const Datatype> type;
  };
  static const unsigned char* at(const void* base, ptrdiff_t offset) {
    return reinterpret_cast<const unsigned char*>(reinterpret_cast<uintptr_t>(base) +
                                                  uintptr_t(offset));
  }
  std::vector<Piece> pieces_;
  size_t packed_bytes_ = 0;
};

}  // namespace weft::coll
