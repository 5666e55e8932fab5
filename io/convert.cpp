// Packing and converting an access's data to and from the view's data stream.
#include "io/convert.hpp"

#include <algorithm>

#include "runtime/datatype/external32.hpp"

namespace weft::io {
namespace {

// Data items a predefined type holds: two for the pair types (MPI_2INT...), else one.
size_t items_of(MPI_Datatype basic) { return predefined_type(basic).pair ? 2 : 1; }

void free_handle(const MPI_Datatype* h) {
  MPI_Datatype t = *h;
  PMPI_Type_free(&t);
  delete h;
}

}  // namespace

Status Conversion::make(const View& v, const Datatype& type, Conversion* out) {
  Conversion c;
  c.rep_ = v.representation();
  c.user_ = v.user_datarep();
  c.type_ = type.share();
  if (c.rep_ == Representation::kUser)
    c.handle_ = std::make_shared<const MPI_Datatype>(type.handle());
  WEFT_TRY(v.stream_size(type, &c.element_bytes_));
  c.extents_ = v.extents();
  c.items_ = signature_sum(type.signature(), items_of);
  *out = std::move(c);
  return Status::success();
}

Status Conversion::as_is(bool to_file) const {
  // Without a conversion function for a direction the data moves as it is in memory (MPI 4.1
  // §14.5.3), which only fits a file that gives every type its memory size.
  if (element_bytes_ == type_->size()) return Status::success();
  return Status::error(MPI_ERR_CONVERSION,
                       "datarep=\"" + user_->name + "\" has MPI_CONVERSION_FN_NULL for " +
                           (to_file ? "writing" : "reading") + " but gives " + type_->label() +
                           " " + std::to_string(element_bytes_) +
                           " bytes in the file instead of its " + std::to_string(type_->size()));
}

Status Conversion::keep_handle() {
  if (rep_ != Representation::kUser || type_->is_predefined()) return Status::success();
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  if (PMPI_Type_dup(*handle_, &copy) != MPI_SUCCESS)
    return Status::error(MPI_ERR_INTERN, "could not keep a handle of the datatype");
  handle_ = std::shared_ptr<const MPI_Datatype>(new MPI_Datatype(copy), free_handle);
  return Status::success();
}

Status Conversion::convert(bool to_file, void* buf, size_t first, size_t count,
                           unsigned char* file) const {
  if (items_ == 0 || count == 0) return Status::success();
  // Calls of at most max_items() items, whole elements each (MPI 4.1 §14.5.3 lets a conversion
  // be split into calls with the same buffer and a growing position).
  const size_t per_call = size_t(std::max<MPI_Count>(1, user_->max_items() / MPI_Count(items_)));
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(count - done, per_call);
    const size_t at = first + done;
    WEFT_TRY(user_->convert(to_file, buf, *handle_, MPI_Count(n * items_),
                            file + (at - first) * element_bytes_, MPI_Offset(at * items_)));
    done += n;
  }
  return Status::success();
}

size_t Conversion::items_within(size_t stream, size_t* memory) const {
  size_t items = 0, file = 0;
  *memory = 0;
  auto visit = [&](MPI_Datatype basic) {
    file += extents_.known(basic);
    if (file > stream) return false;
    items += items_of(basic);
    *memory += predefined_type(basic).size;
    return true;
  };
  for_each_basic(type_->signature(), visit);
  return items;
}

Status Conversion::to_stream(const void* buf, size_t count, unsigned char* out) const {
  const Datatype& t = *type_;
  if (rep_ == Representation::kExternal32) return pack_external32(t, buf, count, out);
  if (rep_ == Representation::kUser && user_->converts(true))
    return convert(true, const_cast<void*>(buf), 0, count, out);
  if (rep_ == Representation::kUser) WEFT_TRY(as_is(true));
  t.pack(buf, count, out);
  return Status::success();
}

Status Conversion::from_stream(const unsigned char* in, size_t stream, void* buf, size_t count,
                               size_t* memory) const {
  const Datatype& t = *type_;
  *memory = 0;
  if (stream == 0) return Status::success();
  if (rep_ == Representation::kNative ||
      (rep_ == Representation::kUser && !user_->converts(false))) {
    if (rep_ == Representation::kUser) WEFT_TRY(as_is(false));
    t.unpack_range(in, count, 0, stream, buf);
    *memory = stream;
    return Status::success();
  }
  const size_t whole = element_bytes_ == 0 ? 0 : std::min(count, stream / element_bytes_);
  if (rep_ == Representation::kExternal32) {  // only whole elements count
    unpack_external32(t, in, whole, buf);
    *memory = whole * t.size();
    return Status::success();
  }
  WEFT_TRY(convert(false, buf, 0, whole, const_cast<unsigned char*>(in)));
  *memory = whole * t.size();
  if (whole == count) return Status::success();
  // The whole items of the element the end of the file cut.
  size_t part = 0;
  const size_t items = items_within(stream - whole * element_bytes_, &part);
  if (items == 0) return Status::success();
  WEFT_TRY(user_->convert(false, buf, *handle_, MPI_Count(items),
                          const_cast<unsigned char*>(in) + whole * element_bytes_,
                          MPI_Offset(whole * items_)));
  *memory += part;
  return Status::success();
}

}  // namespace weft::io
