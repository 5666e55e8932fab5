// File views: checking a view and mapping its data stream onto file offsets.
#include "io/view.hpp"

#include <algorithm>

#include "io/file_layout.hpp"
#include "runtime/datatype/external32.hpp"

namespace weft::io {

namespace {
std::shared_ptr<const Datatype> byte_type() {
  const Datatype* t = nullptr;
  if (!find_datatype(MPI_BYTE, "etype", &t).ok()) return nullptr;
  return t->share();
}
}  // namespace

View::View()
    : etype_(byte_type()),
      filetype_(etype_),
      runs_{{0, 1}},
      before_{0},
      tile_bytes_(1),
      extent_(1) {}

Status View::make(MPI_Offset disp, const Datatype& etype, const Datatype& filetype,
                  const std::string& datarep, View* out) {
  View v;
  WEFT_TRY(find_datarep(datarep, &v.rep_, &v.user_));
  // What the file holds: the types themselves, or their layout in a registered representation.
  std::shared_ptr<const Datatype> file_etype = etype.share(), file_filetype = filetype.share();
  if (v.rep_ == Representation::kUser) {
    v.extents_ = FileExtents(v.user_);
    WEFT_TRY(file_layout(etype, v.extents_, &file_etype));
    WEFT_TRY(file_layout(filetype, v.extents_, &file_filetype));
  }
  const size_t esize = file_etype->size(), fsize = file_filetype->size();
  if (esize == 0)
    return Status::error(MPI_ERR_TYPE,
                         std::string("invalid etype ") + etype.label() + " (holds no data)");
  if (fsize % esize != 0)
    return Status::error(MPI_ERR_TYPE, std::string("invalid filetype ") + filetype.label() +
                                           " (its " + std::to_string(fsize) +
                                           " bytes are not whole etypes of " +
                                           std::to_string(esize) + ")");
  if (fsize > 0 && file_filetype->extent() <= 0)
    return Status::error(MPI_ERR_TYPE, std::string("invalid filetype ") + filetype.label() +
                                           " (extent must be positive)");
  if (v.rep_ == Representation::kExternal32 &&
      (external32_size(etype) != esize || external32_size(filetype) != fsize))
    return Status::error(MPI_ERR_UNSUPPORTED_DATAREP,
                         "external32 views need an etype and filetype of the same size in "
                         "external32 as in memory (e.g. not MPI_LONG or MPI_LONG_DOUBLE)");
  v.disp_ = disp;
  v.etype_ = etype.share();
  v.filetype_ = filetype.share();
  v.datarep_ = datarep;
  v.etype_bytes_ = esize;
  v.runs_ = datatype_runs(*file_filetype, 1);
  v.before_.clear();
  size_t sum = 0;
  ptrdiff_t end = 0;
  for (const Run& r : v.runs_) {
    if (r.offset < end)
      return Status::error(MPI_ERR_TYPE, std::string("invalid filetype ") + filetype.label() +
                                             " (displacements must be non-negative and "
                                             "non-decreasing)");
    v.before_.push_back(sum);
    sum += r.bytes;
    end = r.offset + ptrdiff_t(r.bytes);
  }
  v.tile_bytes_ = sum;
  v.extent_ = file_filetype->extent();
  *out = std::move(v);
  return Status::success();
}

Status View::stream_size(const Datatype& t, size_t* bytes) const {
  if (rep_ == Representation::kNative) {
    *bytes = t.size();
  } else if (rep_ == Representation::kExternal32) {
    *bytes = external32_size(t);
  } else {
    Status failed = Status::success();
    *bytes = signature_sum(t.signature(), [&](MPI_Datatype basic) {
      size_t n = 0;
      if (failed.ok()) failed = extents_.of(basic, &n);
      return n;
    });
    return failed;
  }
  return Status::success();
}

Status View::file_extent(const Datatype& t, MPI_Count* extent) const {
  // external32 packs elements back to back; the native representations keep the extent.
  if (rep_ != Representation::kUser) {
    *extent =
        rep_ == Representation::kExternal32 ? MPI_Count(external32_size(t)) : MPI_Count(t.extent());
    return Status::success();
  }
  std::shared_ptr<const Datatype> file;
  WEFT_TRY(file_layout(t, extents_, &file));
  *extent = MPI_Count(file->extent());
  return Status::success();
}

void View::locate(MPI_Offset pos, MPI_Offset* tile, size_t* run, size_t* into) const {
  *tile = pos / MPI_Offset(tile_bytes_);
  const size_t in_tile = size_t(pos % MPI_Offset(tile_bytes_));
  // The last run that starts at or before in_tile.
  *run = size_t(std::upper_bound(before_.begin(), before_.end(), in_tile) - before_.begin()) - 1;
  *into = in_tile - before_[*run];
}

std::vector<Chunk> View::chunks(MPI_Offset first, size_t len) const {
  std::vector<Chunk> out;
  if (tile_bytes_ == 0 || len == 0) return out;
  MPI_Offset tile = 0;
  size_t run = 0, into = 0;
  locate(first, &tile, &run, &into);
  while (len > 0) {
    const Run& r = runs_[run];
    const size_t n = std::min(len, r.bytes - into);
    const MPI_Offset at = disp_ + tile * extent_ + r.offset + MPI_Offset(into);
    if (!out.empty() && out.back().offset + MPI_Offset(out.back().bytes) == at) {
      out.back().bytes += n;
    } else {
      out.push_back({at, n});
    }
    len -= n;
    into = 0;
    if (++run == runs_.size()) {
      run = 0;
      ++tile;
    }
  }
  return out;
}

MPI_Offset View::byte_offset(MPI_Offset pos) const {
  if (tile_bytes_ == 0) return disp_;
  MPI_Offset tile = 0;
  size_t run = 0, into = 0;
  locate(pos, &tile, &run, &into);
  return disp_ + tile * extent_ + runs_[run].offset + MPI_Offset(into);
}

MPI_Offset View::stream_before(MPI_Offset end) const {
  if (end <= disp_ || tile_bytes_ == 0) return 0;
  const MPI_Offset rel = end - disp_;
  MPI_Offset pos = rel / extent_ * MPI_Offset(tile_bytes_);
  const MPI_Offset rest = rel % extent_;
  for (const Run& r : runs_) pos += std::clamp<MPI_Offset>(rest - r.offset, 0, MPI_Offset(r.bytes));
  return pos;
}

}  // namespace weft::io
