// The steps of one collective access, the same on every rank.
#include "io/collective.hpp"

#include "io/agree.hpp"
#include "io/two_phase.hpp"

namespace weft::io {
namespace {

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

Status run_collective(File& f, CollectiveAccess& c, size_t* stream, size_t* memory) {
  *stream = *memory = 0;
  WEFT_TRY(agree(f.comm, std::move(c.local)));
  const MPI_Offset etype = MPI_Offset(f.view.etype_bytes());
  if (c.where == Pointer::kOrdered)
    WEFT_TRY(ordered_start(f, MPI_Offset(c.staged.len) / etype, &c.start));
  Status placed = place(f, c.start * etype, &c.staged);
  WEFT_TRY(move_collective(f, c.staged.write, c.staged.chunks, c.staged.data(), std::move(placed),
                           stream));
  return unstage(c.staged, *stream, memory);
}

}  // namespace weft::io
