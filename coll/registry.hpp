// The list of every algorithm by collective, in preference order for ties, and lookups by name.
#pragma once
#include <span>
#include <string_view>

#include "coll/algorithm.hpp"

namespace weft::coll {

std::span<const Algorithm* const> algorithms_for(CollKind kind);
// The algorithm of `kind` for intercommunicators, or nullptr where the collective is defined on
// intracommunicators only (scan, exscan, neighbourhood collectives).
const Algorithm* inter_algorithm(CollKind kind);
// The algorithm of `kind` called `name`, or nullptr.
const Algorithm* find_algorithm(CollKind kind, std::string_view name);
// The collective called `name` ("allreduce"); false if there is none.
bool find_coll_kind(std::string_view name, CollKind* out);
// "binomial, scatter_allgather, pipeline, linear" for kBcast.
std::string algorithm_names(CollKind kind);

}  // namespace weft::coll
