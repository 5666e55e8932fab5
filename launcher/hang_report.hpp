// The hang report: on --timeout, or SIGUSR1 to weftrun, every rank is asked (a signal its
// library handles, see runtime/wait_state.hpp) to write what it is blocked in as one marked line
// on stderr; weftrun takes those lines out of the output and prints one summary that groups the
// ranks by state and names the likely culprit: the ranks that are not where most others wait.
// Pure apart from state_signal() (unit-tested).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace weft::launcher {

// The signal ranks answer with their state (a real-time one applications do not use).
int state_signal();

class StateReport {
 public:
  // Takes a rank's stderr line if it is a state line; returns whether it was one.
  bool take(std::string_view line);
  size_t answers() const { return states_.size(); }
  void clear() { states_.clear(); }
  // The summary, one string per line: groups of ranks with one state each ("ranks 0-2, 5: in
  // MPI_Allreduce #41 on MPI_COMM_WORLD"), ranks that did not answer, and the likely culprit.
  // `where(rank)` (may be empty) names a rank's host.
  std::vector<std::string> summary(int nranks, const std::vector<std::string>& host_of_rank) const;

 private:
  std::map<int, std::string> states_;
};

// "0-2, 5, 7-8" for a sorted list of ranks.
std::string rank_ranges(const std::vector<int>& ranks);

}  // namespace weft::launcher
