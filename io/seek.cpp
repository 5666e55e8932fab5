// MPI_File_seek and MPI_File_seek_shared: positions in etypes of the view.
#include "io/agree.hpp"
#include "io/background.hpp"
#include "io/manage.hpp"

namespace weft::io {
namespace {

Status target(File& f, MPI_Offset offset, int whence, MPI_Offset current, MPI_Offset* out) {
  MPI_Offset base = 0;
  if (whence == MPI_SEEK_CUR) {
    base = current;
  } else if (whence == MPI_SEEK_END) {
    MPI_Offset size = 0;
    WEFT_TRY(get_size(f, &size));
    const MPI_Offset e = MPI_Offset(f.view.etype_bytes());
    base = (f.view.stream_before(size) + e - 1) / e;
  } else if (whence != MPI_SEEK_SET) {
    return Status::error(MPI_ERR_ARG, "invalid whence=" + std::to_string(whence) +
                                          " (MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END)");
  }
  if (base + offset < 0)
    return Status::error(MPI_ERR_ARG, "invalid offset=" + std::to_string(offset) +
                                          " (the position would be before the view's start)");
  *out = base + offset;
  return Status::success();
}

}  // namespace

Status seek(File& f, MPI_Offset offset, int whence, bool shared) {
  if (!shared) {
    if (f.amode & MPI_MODE_SEQUENTIAL)
      return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                           "no individual file pointer on a file opened MPI_MODE_SEQUENTIAL");
    return target(f, offset, whence, f.pointer, &f.pointer);
  }
  WEFT_TRY(finish_collectives(f));
  WEFT_TRY(check_same(f.comm, offset, "offset=" + std::to_string(offset)));
  WEFT_TRY(check_same(f.comm, whence, "whence=" + std::to_string(whence)));
  PMPI_Barrier(f.comm);  // every earlier shared-pointer access is done
  MPI_Offset current = 0, next = 0;
  Status s = f.shared.fetch_add(0, &current);
  if (s.ok()) s = target(f, offset, whence, current, &next);
  WEFT_TRY(agree(f.comm, std::move(s)));
  return store_shared(f, next);
}

}  // namespace weft::io
