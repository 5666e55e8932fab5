// Staging an access's data in the view's representation, placing it, and the independent path.
#include "io/transfer.hpp"

#include "io/posix_io.hpp"
#include "io/sieve.hpp"

namespace weft::io {

Status stage(const File& f, const Access& a, Staged* out) {
  Staged& s = *out;
  const Datatype& t = *a.type;
  WEFT_TRY(Conversion::make(f.view, t, &s.conv));
  if (s.conv.element_bytes() % f.view.etype_bytes() != 0 && a.count > 0)
    return Status::error(MPI_ERR_TYPE, std::string("invalid datatype ") + t.label() +
                                           " (not a whole number of the view's etype " +
                                           f.view.etype().label() + ")");
  s.write = a.write;
  s.len = a.count * s.conv.element_bytes();
  s.buf = a.buf;
  s.count = a.count;
  if (s.len == 0) return Status::success();
  // The stream bytes: the memory itself when it is contiguous and native, else a staging copy.
  s.direct = s.conv.native() && t.is_contiguous(a.count);
  if (s.direct) {
    s.user = static_cast<unsigned char*>(t.data_start(a.buf));
    return Status::success();
  }
  s.staging.resize(s.len);
  if (a.background != nullptr && !a.write) WEFT_TRY(s.conv.keep_handle());
  return a.write ? s.conv.to_stream(a.buf, a.count, s.staging.data()) : Status::success();
}

Status place(const File& f, MPI_Offset first, Staged* s) {
  if (s->len == 0) return Status::success();
  s->chunks = f.view.chunks(first, s->len);
  if (!s->chunks.empty()) return Status::success();
  s->len = 0;
  if (!s->write) return Status::success();
  return Status::error(MPI_ERR_IO, "the view of \"" + f.path + "\" holds no data to write to");
}

Status unstage(Staged& s, size_t stream, size_t* memory) {
  if (!s.write && !s.direct)
    return s.conv.from_stream(s.staging.data(), stream, s.buf, s.count, memory);
  // A write moves all its data or fails; a direct read's data is in memory already.
  const size_t element = s.conv.element_bytes();
  *memory = s.conv.native() || element == 0 ? stream : stream / element * s.conv.type().size();
  return Status::success();
}

Status transfer(const File& f, MPI_Offset first, Staged& s, size_t* stream, size_t* memory) {
  *stream = *memory = 0;
  WEFT_TRY(place(f, first, &s));
  WEFT_TRY(move_independent(target_of(f), s.write, s.chunks, s.data(), stream));
  return unstage(s, *stream, memory);
}

}  // namespace weft::io
