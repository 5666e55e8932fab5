// One data access: the checks, where it starts, and the file pointer it moves.
#include "io/access.hpp"

#include "io/background.hpp"
#include "io/collective.hpp"
#include "io/transfer.hpp"

namespace weft::io {
namespace {

Status check(const File& f, const Access& a) {
  if (a.write && (f.amode & MPI_MODE_RDONLY))
    return Status::error(MPI_ERR_READ_ONLY, "\"" + f.path + "\" was opened MPI_MODE_RDONLY");
  if (!a.write && (f.amode & MPI_MODE_WRONLY))
    return Status::error(MPI_ERR_ACCESS, "\"" + f.path + "\" was opened MPI_MODE_WRONLY");
  if ((f.amode & MPI_MODE_SEQUENTIAL) &&
      (a.where == Pointer::kExplicit || a.where == Pointer::kIndividual))
    return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                         "only shared file pointers may be used on a file opened "
                         "MPI_MODE_SEQUENTIAL");
  if (a.where == Pointer::kExplicit && a.offset < 0)
    return Status::error(MPI_ERR_ARG,
                         "invalid offset=" + std::to_string(a.offset) + " (must be >= 0)");
  return Status::success();
}

// The individual pointer after `stream` bytes moved from it: past every etype they touch.
void advance(File& f, size_t stream) {
  const size_t e = f.view.etype_bytes();
  f.pointer += MPI_Offset((stream + e - 1) / e);
}

// A collective access: started on the file's collective thread, or run now once the ones
// queued before it have run.
Status collective(File& f, const Access& a, Status local, Staged s, size_t* bytes) {
  CollectiveAccess c{std::move(local), a.where,
                     a.where == Pointer::kIndividual ? f.pointer : a.offset, std::move(s)};
  if (a.background != nullptr) {
    if (a.where == Pointer::kIndividual) advance(f, c.staged.len);
    return start_collective(f, a.fn, std::move(c), a.background);
  }
  WEFT_TRY(finish_collectives(f));
  size_t moved = 0;
  Status result = run_collective(f, c, &moved, bytes);
  if (a.where == Pointer::kIndividual) advance(f, moved);
  return result;
}

}  // namespace

void set_status(MPI_Status* status, size_t bytes) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->weft_cancelled = 0;
  status->weft_bytes = (long long)bytes;
}

Status access(File& f, const Access& a, size_t* bytes) {
  *bytes = 0;
  Staged s;
  Status local = check(f, a);
  if (local.ok()) local = stage(f, a, &s);
  if (a.collective) return collective(f, a, std::move(local), std::move(s), bytes);
  WEFT_TRY(local);
  const MPI_Offset e = MPI_Offset(f.view.etype_bytes());
  MPI_Offset start = 0;  // in etypes
  switch (a.where) {
    case Pointer::kIndividual:
      start = f.pointer;
      break;
    case Pointer::kShared:
      WEFT_TRY(f.shared.fetch_add(MPI_Offset(s.len) / e, &start));
      break;
    default:
      start = a.offset;
      break;
  }
  if (a.background != nullptr) {
    if (a.where == Pointer::kIndividual) advance(f, s.len);  // all that was asked for
    WEFT_TRY(place(f, start * e, &s));
    return start_independent(f, a.fn, std::move(s), a.background);
  }
  size_t moved = 0;
  const Status result = transfer(f, start * e, s, &moved, bytes);
  if (a.where == Pointer::kIndividual) advance(f, moved);
  return result;
}

}  // namespace weft::io
