// Everything a node needs to start its share of a job, built by weftrun from its options and the
// placement, and sent to each weftd: the PMIx namespace, the nodes and each rank's node, the app
// contexts, and the environment every rank starts from.
#pragma once
#include <string>
#include <vector>

#include "launcher/args.hpp"

namespace weft::launcher {

struct JobSpec {
  std::string nspace;
  std::vector<std::string> nodes;  // node names, as placed
  std::vector<int> node_of_rank;
  std::vector<AppContext> apps;     // argv[0] as weftrun resolved it (absolute when given a path)
  std::vector<std::string> env;     // "NAME=value": the environment common to every rank
  bool tag_output = false;
  BindingOptions binding;
  // Starting the daemons: the launch agent, the fan-out of the start-up tree (0: weftrun starts
  // every daemon itself), and the node weftrun runs ranks on (-1: none).
  std::string launch_agent;
  int fanout = 0;
  int launcher_node = -1;
  // MPI_UNIVERSE_SIZE: the ranks, plus the cores of weftrun's node (where MPI_Comm_spawn starts
  // processes) that no rank has.
  int universe_size = 0;

  int nranks() const { return int(node_of_rank.size()); }
  // The app context of `rank`.
  int app_of(int rank) const;
  // Ranks on `node`, in order, and `rank`'s index among them.
  std::vector<int> ranks_on(int node) const;
  int local_rank_of(int rank) const;
  // The daemons that `node` starts (-1: weftrun): a tree of `fanout` children each over the
  // nodes other than launcher_node, in order, so that start-up takes log(hosts) agent steps.
  std::vector<int> tree_children(int node) const;
};

std::string encode_job_spec(const JobSpec& spec);
// False when `body` is not a whole JobSpec.
bool decode_job_spec(const std::string& body, JobSpec* out);

}  // namespace weft::launcher
