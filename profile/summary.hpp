// The job's profile made of every rank's (rank 0, at MPI_Finalize): per function totals and their
// spread over ranks, the busiest call sites, time in MPI per rank and the communication matrix.
// Pure; the text and HTML reports are drawn from it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "profile/rank_profile.hpp"

namespace weft::profile {

struct FunctionSummary {
  std::string name;
  uint64_t calls = 0;  // all ranks together
  uint64_t bytes = 0;
  uint64_t ns = 0;
  uint64_t max_ns = 0;                // longest single call on any rank
  std::vector<uint64_t> ns_by_rank;   // time in this function on each rank
  std::vector<uint64_t> calls_by_rank;
  uint64_t rank_min_ns = 0;
  uint64_t rank_max_ns = 0;
  double rank_mean_ns = 0;
  int slowest_rank = 0;  // the rank with the most time in it (the lowest such rank on a tie)
  double mean_call_ns() const { return calls ? double(ns) / double(calls) : 0; }
};

struct SiteSummary {
  std::string function;
  std::string module;
  uint64_t offset = 0;
  std::string symbol;    // from dladdr, may be empty
  std::string location;  // function and file:line from the debug information, may be empty
  uint64_t calls = 0;
  uint64_t ns = 0;
  int ranks = 0;  // how many ranks called it there
};

struct JobSummary {
  int nranks = 0;
  std::vector<std::string> hosts;  // by rank
  std::vector<uint64_t> run_ns;    // by rank
  std::vector<uint64_t> mpi_ns;    // by rank
  std::vector<FunctionSummary> functions;  // by total time, longest first
  std::vector<SiteSummary> sites;          // the busiest, by total time
  uint64_t unplaced_site_calls = 0;
  // Point-to-point sends: [from * nranks + to].
  std::vector<uint64_t> matrix_bytes;
  std::vector<uint64_t> matrix_messages;
  PeerTraffic sent_outside_world;
  double mpi_share(int rank) const {
    return run_ns[size_t(rank)] ? double(mpi_ns[size_t(rank)]) / double(run_ns[size_t(rank)]) : 0;
  }
};

inline constexpr int kTopSites = 12;

// `ranks` indexed by rank, one per rank of MPI_COMM_WORLD.
JobSummary summarize(const std::vector<RankProfile>& ranks);

}  // namespace weft::profile
