// Learning and deriving communicators' node maps.
#include "runtime/comm/nodes.hpp"

#include <map>
#include <unordered_map>
#include <vector>

#include "coll/node_map.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/config.hpp"
#include "runtime/world.hpp"

namespace weft {
namespace {

// Keeps `map` where it has more than one node (one node needs no node-aware algorithm).
void set_nodes(Comm& comm, coll::NodeMap map) {
  comm.nodes_known = true;
  if (map.nodes() > 1) comm.nodes = std::make_shared<const coll::NodeMap>(std::move(map));
}

}  // namespace

Status node_name_setting(const std::string& value, int rank, std::string* name) {
  name->clear();
  if (value == "auto") return Status::success();
  std::vector<std::string> names(1);
  for (char c : value) {
    if (c == ',') {
      names.emplace_back();
    } else {
      names.back() += c;
    }
  }
  for (const std::string& n : names) {
    if (n.empty()) {
      return Status::error(MPI_ERR_OTHER,
                           "WEFT_NODE_MAP='" + value +
                               "' has an empty node name (expected comma-separated names for "
                               "ranks 0, 1, ... of MPI_COMM_WORLD, such as a,a,b,b, or auto)");
    }
  }
  *name = names[size_t(rank) % names.size()];
  return Status::success();
}

Status learn_nodes(Comm& comm) {
  if (comm.nodes_known) return Status::success();
  comm.nodes_known = true;  // also while the allgather below runs
  if (comm.is_inter() || comm.internal || comm.size == 1) return Status::success();
  const JobInfo& job = world().kvs->job();
  std::string name;
  WEFT_TRY(node_name_setting(setting_value("WEFT_NODE_MAP"), job.rank, &name));
  if (name.empty()) {
    bool foreign = false;  // a process of another job (spawned or connected)
    for (int w : comm.world_ranks) foreign = foreign || w >= job.size;
    if (job.local_size >= job.size && !foreign) return Status::success();  // all on one node
    name = job.hostname;
  }
  char mine[MPI_MAX_PROCESSOR_NAME] = {};
  name.copy(mine, sizeof mine - 1);
  std::vector<char> all(size_t(comm.size) * sizeof mine);
  // The exchange gives its number back to the call that comes next, so that learning shifts
  // none of the numbers the hang report shows. That call's messages travel under the same tags,
  // but every member finishes the exchange before starting it, so by MPI's non-overtaking rule
  // each message still meets the receive meant for it.
  const uint32_t number = comm.coll_seq;
  const Status gathered = internal_allgather(comm, mine, sizeof mine, all.data());
  comm.coll_seq = number;
  WEFT_TRY(gathered);
  std::map<std::string, int> id_of;
  std::vector<int> ids;
  for (int r = 0; r < comm.size; ++r)
    ids.push_back(id_of.try_emplace(&all[size_t(r) * sizeof mine], r).first->second);
  set_nodes(comm, coll::NodeMap::from_ids(ids));
  return Status::success();
}

void inherit_nodes(const Comm& parent, Comm& child) {
  if (!parent.nodes_known) return;
  if (parent.nodes == nullptr) {  // the parent runs on one node, and so does the child
    child.nodes_known = true;
    return;
  }
  std::unordered_map<int, int> node_of;  // world rank -> node
  for (int r = 0; r < parent.size; ++r)
    node_of[parent.world_ranks[size_t(r)]] = parent.nodes->node_of[size_t(r)];
  std::vector<int> ids;
  for (int w : child.world_ranks) ids.push_back(node_of.at(w));
  set_nodes(child, coll::NodeMap::from_ids(ids));
}

}  // namespace weft
