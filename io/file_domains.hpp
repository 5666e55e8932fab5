// The file domains of two-phase I/O: the range one collective call covers, cut into one
// contiguous domain per aggregator. With an alignment (the striping_unit hint, or Weft's
// default), every boundary between domains falls on a multiple of it, so no two aggregators
// write into one stripe (on a striped file system, where stripes are locked whole: W.-k. Liao,
// A. Choudhary, "Dynamically Adapting File Domain Partitioning Methods for Collective I/O Based
// on Underlying Parallel File System Locking Protocols", SC 2008). Pure arithmetic, no MPI.
#pragma once
#include <vector>

#include "mpi.h"

namespace weft::io {

// n + 1 boundaries: domain i is [bounds[i], bounds[i + 1]). The first is lo, the last hi; the
// others split [lo, hi) evenly, each moved to the nearest multiple of `align` (file offsets;
// align <= 1: none), never backwards, so a domain may be empty.
std::vector<MPI_Offset> domain_bounds(MPI_Offset lo, MPI_Offset hi, int n, MPI_Offset align);

}  // namespace weft::io
