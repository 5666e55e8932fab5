// MPI group arithmetic on ordered lists of world ranks: the set operations, inclusion and
// exclusion by ranks or ranges, rank translation and comparison. Pure functions, argument
// checks included (MPI_ERR_RANK / MPI_ERR_ARG naming the argument), so the C API only maps
// handles.
#pragma once
#include <vector>

#include "runtime/status.hpp"

namespace weft::groups {

using Members = std::vector<int>;  // group rank -> world rank

// MPI_IDENT, MPI_SIMILAR (same members, other order) or MPI_UNEQUAL.
int compare(const Members& a, const Members& b);
// This process's rank in `g` given its world rank, or MPI_UNDEFINED.
int rank_of(const Members& g, int world_rank);

Members set_union(const Members& a, const Members& b);         // a, then b's others in order
Members intersection(const Members& a, const Members& b);      // in a's order
Members difference(const Members& a, const Members& b);        // a without b, in a's order

// `ranks` must be distinct valid ranks of g.
Status incl(const Members& g, const std::vector<int>& ranks, Members* out);
Status excl(const Members& g, const std::vector<int>& ranks, Members* out);
// Ranges (first, last, stride) as MPI_Group_range_incl/excl take them.
struct RankRange {
  int first, last, stride;
};
Status range_incl(const Members& g, const std::vector<RankRange>& ranges, Members* out);
Status range_excl(const Members& g, const std::vector<RankRange>& ranges, Members* out);

// The rank in `to` of each of `ranks` in `from`: MPI_UNDEFINED where absent, MPI_PROC_NULL
// kept.
Status translate(const Members& from, const std::vector<int>& ranks, const Members& to,
                 std::vector<int>* out);

}  // namespace weft::groups
