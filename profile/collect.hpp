// At MPI_Finalize: this rank's thread logs folded into its RankProfile, and the job's profiles
// brought to rank 0 (PMPI calls only).
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "profile/clock.hpp"
#include "profile/rank_profile.hpp"

namespace weft::profile {

// Each rank sends this many of its busiest call sites, so that a site busy over the job but not
// among the first few of every rank still adds up at rank 0.
inline constexpr int kSitesPerRank = 32;

// This machine's name as MPI_Get_processor_name gives it.
std::string host_name();

// This rank's profile of the run from `start` to `end`.
RankProfile collect_rank(const ClockPoint& start, const ClockPoint& end);

// Every rank's profile at rank 0 of comm, indexed by rank (empty on the other ranks). A profile
// that does not decode is left empty, with a message.
std::vector<RankProfile> gather_profiles(MPI_Comm comm, const RankProfile& mine);

}  // namespace weft::profile
