// Packing and unpacking of collective buffers with non-contiguous datatypes.
#include "coll/typed_buffer.hpp"

namespace weft::coll {

void TypedBuffer::add(ptrdiff_t offset, size_t count, std::shared_ptr<const Datatype> type) {
  packed_bytes_ += count * type->size();
  pieces_.push_back({offset, count, std::move(type)});
}

void TypedBuffer::pack(const void* user, unsigned char* packed) const {
  for (const Piece& p : pieces_) {
    p.type->pack(at(user, p.offset), p.count, packed);
    packed += p.count * p.type->size();
  }
}

void TypedBuffer::unpack(const unsigned char* packed, void* user) const {
  for (const Piece& p : pieces_) {
    p.type->unpack(packed, p.count, const_cast<unsigned char*>(at(user, p.offset)));
    packed += p.count * p.type->size();
  }
}

}  // namespace weft::coll
