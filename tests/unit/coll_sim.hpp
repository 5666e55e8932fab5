// An in-process simulator for collective schedules: one real Executor per simulated rank, joined
// by an in-memory Channel that matches sends and receives per (sender, receiver, lane) in order
// and completes them in a random order. Rendezvous mode (a send completes only when matched)
// exposes deadlocks; eager mode (a send may complete at once, its data buffered) exposes buffers
// reused too early. Node-region posts complete in a random order too (their data is read when
// they complete; a post by reference is read by its fetches where it lies, and completes when
// they all have), and fetches complete once their peer's post has; every post must be fetched
// exactly as often as it says. Used by the algorithm tests; the real library runs the same
// executor.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "coll/executor.hpp"
#include "coll/schedule.hpp"
#include "runtime/op/op.hpp"

namespace weft::test {

struct SimRun {
  uint64_t seed = 1;
  bool eager = false;
};

struct SimOutcome {
  bool deadlock = false;
  std::string error;  // the first executor error, or a mismatched message
  bool ok() const { return !deadlock && error.empty(); }
};

// Runs every rank's schedule to completion. schedules[r] and bindings[r] belong to rank r.
SimOutcome simulate(const std::vector<coll::Schedule>& schedules,
                    const std::vector<coll::Binding>& bindings, const Reduction* reduction,
                    const SimRun& run);

}  // namespace weft::test
