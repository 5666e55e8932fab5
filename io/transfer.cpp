// Conversion to and from the file's representation, and the choice of data path.
#include "io/transfer.hpp"

#include "io/posix_io.hpp"
#include "io/sieve.hpp"
#include "io/two_phase.hpp"
#include "runtime/datatype/external32.hpp"

namespace weft::io {

Status stage(const File& f, MPI_Offset first, const Access& a, Staged* out) {
  Staged& s = *out;
  const Datatype& t = *a.type;
  s.write = a.write;
  s.ext32 = f.view.representation() == Representation::kExternal32;
  s.len = f.view.stream_bytes(t, a.count);
  s.type = t.share();
  s.buf = a.buf;
  s.count = a.count;
  if (s.len == 0) return Status::success();
  s.chunks = f.view.chunks(first, s.len);
  if (s.chunks.empty()) {
    s.len = 0;
    if (!a.write) return Status::success();
    return Status::error(MPI_ERR_IO, "the view of \"" + f.path + "\" holds no data to write to");
  }
  // The stream bytes: the memory itself when it is contiguous and native, else a staging copy.
  s.direct = !s.ext32 && t.is_contiguous(a.count);
  s.staging.resize(s.direct ? 0 : s.len);
  s.data = s.direct ? static_cast<unsigned char*>(t.data_start(a.buf)) : s.staging.data();
  if (!a.write || s.direct) return Status::success();
  if (s.ext32) return pack_external32(t, a.buf, a.count, s.data);
  t.pack(a.buf, a.count, s.data);
  return Status::success();
}

void unstage(Staged& s, size_t stream, size_t* memory) {
  const Datatype& t = *s.type;
  // Under external32 only whole elements count (and are converted back).
  const size_t whole = s.ext32 ? stream / external32_size(t) : 0;
  *memory = s.ext32 ? whole * t.size() : stream;
  if (s.write || s.direct || stream == 0) return;
  if (s.ext32) {
    unpack_external32(t, s.data, whole, s.buf);
  } else {
    t.unpack_range(s.data, s.count, 0, stream, s.buf);
  }
}

Status transfer(File& f, MPI_Offset first, const Access& a, size_t* stream, size_t* memory) {
  *stream = *memory = 0;
  Staged s;
  Status st = stage(f, first, a, &s);
  if (a.collective) {
    WEFT_TRY(move_collective(f, a.write, s.chunks, s.data, std::move(st), stream));
  } else {
    WEFT_TRY(st);
    WEFT_TRY(move_independent(target_of(f), a.write, s.chunks, s.data, stream));
  }
  unstage(s, *stream, memory);
  return Status::success();
}

}  // namespace weft::io
