// One data access: the checks, where it starts, and the file pointer it moves.
#include "io/access.hpp"

#include "io/agree.hpp"
#include "io/background.hpp"
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
  if (f.view.stream_bytes(*a.type, 1) % f.view.etype_bytes() != 0 && a.count > 0)
    return Status::error(MPI_ERR_TYPE, std::string("invalid datatype ") + a.type->label() +
                                           " (not a whole number of the view's etype " +
                                           f.view.etype().label() + ")");
  return Status::success();
}

// Where rank order puts this rank's `n` etypes: after those of lower ranks, at the shared
// pointer, which moves past all of them.
Status ordered_start(File& f, MPI_Offset n, MPI_Offset* start) {
  MPI_Offset prefix = 0, total = n, base = 0;
  PMPI_Exscan(&n, &prefix, 1, MPI_LONG_LONG, MPI_SUM, f.comm);
  if (f.rank == 0) prefix = 0;
  PMPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, f.comm);
  Status s = f.rank == 0 ? f.shared.fetch_add(total, &base) : Status::success();
  WEFT_TRY(agree(f.comm, std::move(s)));
  PMPI_Bcast(&base, 1, MPI_LONG_LONG, 0, f.comm);
  *start = base + prefix;
  return Status::success();
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
  Status s = check(f, a);
  if (a.collective) s = agree(f.comm, std::move(s));
  WEFT_TRY(s);
  const size_t len = f.view.stream_bytes(*a.type, a.count);
  const MPI_Offset etypes = MPI_Offset(len / f.view.etype_bytes());
  MPI_Offset start = 0;
  switch (a.where) {
    case Pointer::kExplicit:
      start = a.offset;
      break;
    case Pointer::kIndividual:
      start = f.pointer;
      break;
    case Pointer::kShared:
      WEFT_TRY(f.shared.fetch_add(etypes, &start));
      break;
    case Pointer::kOrdered:
      WEFT_TRY(ordered_start(f, etypes, &start));
      break;
  }
  if (a.background != nullptr && !a.collective) {
    Staged staged;
    WEFT_TRY(stage(f, start * MPI_Offset(f.view.etype_bytes()), a, &staged));
    if (a.where == Pointer::kIndividual) f.pointer += etypes;
    return start_background(f, std::move(staged), a.background);
  }
  size_t moved = 0;
  s = transfer(f, start * MPI_Offset(f.view.etype_bytes()), a, &moved, bytes);
  if (a.where == Pointer::kIndividual)
    f.pointer += MPI_Offset((moved + f.view.etype_bytes() - 1) / f.view.etype_bytes());
  return s;
}

}  // namespace weft::io
