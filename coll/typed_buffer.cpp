// Packing and unpacking of collective buffers with non-contiguous datatypes.
#include "coll/typed_buffer.hpp"

#include "gpu/typed_copy.hpp"

namespace weft::coll {

void TypedBuffer::add(ptrdiff_t offset, size_t count, std::shared_ptr<const Datatype> type) {
  packed_bytes_ += count * type->size();
  pieces_.push_back({offset, count, std::move(type)});
}

Status TypedBuffer::pack(const void* user, unsigned char* packed) const {
  for (const Piece& p : pieces_) {
    WEFT_TRY(gpu::pack_typed(at(user, p.offset), p.count, *p.type, packed));
    packed += p.count * p.type->size();
  }
  return Status::success();
}

Status TypedBuffer::unpack(const unsigned char* packed, void* user) const {
  for (const Piece& p : pieces_) {
    const size_t bytes = p.count * p.type->size();
    WEFT_TRY(gpu::unpack_typed(packed, p.count, bytes, *p.type,
                               const_cast<unsigned char*>(at(user, p.offset))));
    packed += bytes;
  }
  return Status::success();
}

}  // namespace weft::coll
