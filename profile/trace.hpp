// WEFT_PROFILE=trace: every rank's calls as one Chrome/Perfetto trace-event JSON file, written by
// rank 0 at MPI_Finalize.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>

#include "profile/clock.hpp"

namespace weft::profile {

// One event as it travels to rank 0: times in nanoseconds since the rank's start of the run.
struct WireEvent {
  uint64_t start_ns;
  uint64_t duration_ns;
  uint64_t bytes;
  uint16_t function;
  uint16_t thread;
  int32_t peer;
};

// Collective over comm (MPI_COMM_WORLD's ranks in order). Rank 0 writes `path`: its own events,
// then each other rank's in turn (one rank's events in flight at a time, so rank 0 holds no more
// than its own budget and one other's). `start` is the run's start on this rank, `ns_per_tick`
// its clock's rate. Returns false at rank 0 if the file could not be written, with `error` set.
bool write_trace(MPI_Comm comm, const std::string& path, Tick start, double ns_per_tick,
                 std::string* error);

}  // namespace weft::profile
