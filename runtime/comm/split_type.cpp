// MPI_Comm_split_type's places: each rank computes its own, the ranks gather them (fixed-size
// records), and those with equal places split off together (color: the first such rank).
#include "runtime/comm/split_type.hpp"

#include <vector>

#include "runtime/comm/create.hpp"
#include "runtime/hardware.hpp"
#include "runtime/world.hpp"

namespace weft {
namespace {

// Room for one place: a host name, a resource type and an instance.
constexpr size_t kPlaceBytes = MPI_MAX_PROCESSOR_NAME + 64;

const std::string& host() { return world().kvs->job().hostname; }

// This process's place at resource type `type` ("mpi_shared_memory" or a hardware URI): "" when
// it is not restricted to one instance of it, or the type is unknown.
std::string place_at(const std::string& type) {
  if (type == kSharedMemory) return host();
  const int instance = hardware::restricted_instance(type);
  return instance < 0 ? std::string() : host() + "|" + type + "#" + std::to_string(instance);
}

// The levels MPI_COMM_TYPE_HW_UNGUIDED tries, largest first: the node, then hwloc's types below
// the machine.
std::vector<std::string> unguided_levels() {
  std::vector<std::string> levels = {kSharedMemory};
  for (const std::string& type : hardware::known_types())
    if (type != "hwloc://Machine") levels.push_back(type);
  return levels;
}

// Every rank's places (`mine`: one per level, the same count on every rank), gathered over
// `parent`: the result holds rank r's place at level l at [r * levels + l].
Status gather_places(Comm& parent, const std::vector<std::string>& mine,
                     std::vector<std::string>* all) {
  std::vector<char> out(mine.size() * kPlaceBytes, '\0');
  for (size_t l = 0; l < mine.size(); ++l) mine[l].copy(&out[l * kPlaceBytes], kPlaceBytes - 1);
  std::vector<char> in(size_t(parent.size) * out.size());
  WEFT_TRY(internal_allgather(parent, out.data(), out.size(), in.data()));
  all->clear();
  for (size_t at = 0; at < in.size(); at += kPlaceBytes) all->emplace_back(&in[at]);
  return Status::success();
}

// Splits `parent` by the places of level `level` (of `levels` per rank in `all`).
Status split_at(Comm& parent, const std::vector<std::string>& all, size_t levels, size_t level,
                int key, MPI_Comm* out) {
  const std::string& mine = all[size_t(parent.rank) * levels + level];
  int color = MPI_UNDEFINED;
  for (int r = 0; r < parent.size && color == MPI_UNDEFINED && !mine.empty(); ++r)
    if (all[size_t(r) * levels + level] == mine) color = r;
  return comm_split(parent, color, key, out);
}

// The first level whose places divide the ranks: not all equal, and not all empty (a level no rank
// is restricted to tells nothing; a finer one may). `levels` past the end when none does.
size_t dividing_level(const std::vector<std::string>& all, size_t levels, int ranks) {
  for (size_t l = 0; l < levels; ++l) {
    bool all_equal = true, all_empty = true;
    for (int r = 0; r < ranks; ++r) {
      const std::string& p = all[size_t(r) * levels + l];
      all_equal &= p == all[l];
      all_empty &= p.empty();
    }
    if (!all_empty && !(all_equal && !all[l].empty())) return l;
  }
  return levels;
}

// This process's place in a split by process set: the set, "" when this process is not in it.
// Processes that see sets of one name see one set, or (each its own mpi://SELF) disjoint ones,
// which their first members tell apart.
std::string pset_place(const SplitBy& by) {
  if (groups::rank_of(by.pset, my_world_rank()) == MPI_UNDEFINED) return "";
  return "mpi_pset_name|" + by.pset_name + "|" + std::to_string(by.pset.front());
}

// A guided split's place for this process; "" for none.
std::string guided_place(const SplitBy& by) {
  if (by.split_type == MPI_COMM_TYPE_SHARED) return host();
  if (by.by_pset) return pset_place(by);
  return by.resource_type.empty() ? "" : place_at(by.resource_type);
}

}  // namespace

Status comm_split_type(Comm& parent, const SplitBy& by, int key, MPI_Comm* out,
                       std::string* chosen) {
  chosen->clear();
  std::vector<std::string> all;
  if (by.split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
    const std::vector<std::string> levels = unguided_levels();
    std::vector<std::string> mine;
    for (const std::string& type : levels) mine.push_back(place_at(type));
    WEFT_TRY(gather_places(parent, mine, &all));
    const size_t level = dividing_level(all, levels.size(), parent.size);
    if (level == levels.size()) return comm_split(parent, MPI_UNDEFINED, key, out);
    if (!mine[level].empty()) *chosen = levels[level];
    return split_at(parent, all, levels.size(), level, key, out);
  }
  const std::string mine = by.split_type == MPI_UNDEFINED ? "" : guided_place(by);
  WEFT_TRY(gather_places(parent, {mine}, &all));
  if (!mine.empty()) *chosen = by.by_pset ? by.pset_name : by.resource_type;
  return split_at(parent, all, 1, 0, key, out);
}

Status comm_split_node(Comm& parent, int key, MPI_Comm* out) {
  SplitBy by;
  by.split_type = MPI_COMM_TYPE_SHARED;
  std::string chosen;
  return comm_split_type(parent, by, key, out, &chosen);
}

}  // namespace weft
