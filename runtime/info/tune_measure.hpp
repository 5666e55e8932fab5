// weft_tune's measurements, plain MPI: ping-pong between a leader and a follower rank (the
// leader decides sizes and repetitions, the follower echoes), and local reduction speed.
#pragma once
#include <cstddef>
#include <vector>

#include "mpi.h"

namespace weft::tune {

inline constexpr size_t kMaxMessage = size_t(4) << 20;

// One message size: the half round trip, seconds, over the repetitions (each the average of
// `round_trips`): the minimum is the machine's speed when nothing else ran, the median what a
// busy moment gives.
struct Timing {
  size_t bytes = 0;
  double min = 0;
  double median = 0;
  int repetitions = 0;
  long round_trips = 0;  // per repetition
};

// The follower's side: echoes what the leader sends until the leader says stop.
void serve(int leader);

class PingPong {
 public:
  explicit PingPong(int follower);
  ~PingPong();  // tells the follower to stop
  // Repeats `repetitions` runs of round trips of `bytes` (at most kMaxMessage), each run long
  // enough to last about `run_seconds`.
  Timing measure(size_t bytes, int repetitions, double run_seconds);
  // The same with a fixed number of round trips per run, after one warm-up run.
  Timing measure_runs(size_t bytes, int repetitions, long round_trips);

 private:
  double run(size_t bytes, long round_trips);
  int follower_;
  std::vector<char> buffer_;
};

// Seconds per byte of MPI_Reduce_local(MPI_SUM) on `type` (MPI_FLOAT or MPI_DOUBLE) over a
// vector of `bytes`: the fastest of `repetitions` calls after a warm-up.
double reduce_seconds_per_byte(MPI_Datatype type, size_t bytes, int repetitions);

// What the node region costs: a hand-over (alpha_region_us) and a byte copied in or out
// (beta_region_ns_per_byte), in seconds; -1 where not measured.
struct RegionTimes {
  double handover = -1;
  double per_byte = -1;
};
// On `pair` (ranks 0 and 1 of one node): broadcasts with alternating roots, each one post seen
// by the other rank, through the communicator's node region (the process set
// WEFT_BCAST_ALGORITHM=shm before MPI_Init): 8 B ones for the hand-over, and 16 KiB ones (a
// copy into the root's slot and one out of it) for the slope. Both ranks call it; rank 0 gets
// the best of `repetitions` runs of each, or nothing measured when the broadcasts did not go
// through a region (no shared memory, or regions off).
RegionTimes region_seconds(MPI_Comm pair, int repetitions);

// The middle value (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

}  // namespace weft::tune
