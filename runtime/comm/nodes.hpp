// Node maps of communicators (coll/node_map.hpp), which the node-aware collectives and the cost
// model use: learnt once per communicator, and only where it could span nodes, by an allgather
// of node names; a communicator made from a parent that knows its map derives its own.
#pragma once
#include <string>

#include "runtime/comm/comm.hpp"

namespace weft {

// Learns comm.nodes unless already known. Nothing to do (and nothing exchanged) where the job
// runs on one node and the communicator holds no process of another job; otherwise one
// allgather of node names over `comm`: the launcher's host names, or those WEFT_NODE_MAP gives.
// Intercommunicators and internal communicators get none. Every member calls it at the same
// point, so it runs at blocking collectives (coll::run_blocking), never inside a nonblocking one.
Status learn_nodes(Comm& comm);

// `child`, made of ranks of `parent` by a collective call on `parent`, derives its node map from
// the parent's, if that is known.
void inherit_nodes(const Comm& parent, Comm& child);

// The node name WEFT_NODE_MAP `value` gives the process of rank `rank` in MPI_COMM_WORLD:
// comma-separated names for ranks 0, 1, 2, ..., repeated when the job has more ranks. "" for
// "auto" (the launcher's host name). MPI_ERR_OTHER naming the setting for an empty name.
Status node_name_setting(const std::string& value, int rank, std::string* name);

}  // namespace weft
